import { proxyActivities } from '@temporalio/workflow';
import { NON_RETRYABLE_FAILURE_TYPES } from '../../activities/clone/logic/failures';
import type {
  ContractActivities,
  ContractValidateInput,
  ContractValidateResult,
  EnforcementEvent,
} from '../../activities/contracts';

const { contractValidate, contractFailureEvent } = proxyActivities<ContractActivities>({
  startToCloseTimeout: '1 hour',
  heartbeatTimeout: '30 seconds',
  retry: { maximumAttempts: 3, initialInterval: 1000, nonRetryableErrorTypes: [...NON_RETRYABLE_FAILURE_TYPES] },
});

/** Delivery of a failure event: retried with backoff for about two minutes, then given up (and said so). */
const { contractEnforce } = proxyActivities<ContractActivities>({
  startToCloseTimeout: '30 seconds',
  retry: {
    maximumAttempts: 6,
    initialInterval: '1 second',
    backoffCoefficient: 2,
    maximumInterval: '1 minute',
    nonRetryableErrorTypes: ['EnforcementRefused'],
  },
});

export interface EnforcementOutcome {
  endpoint: string;
  delivered: boolean;
  error?: string;
}

/** Sends a failure event to an enforcement endpoint; never fails the workflow that asked for it. */
export async function contractEnforcementWorkflow(e: {
  endpoint: string;
  event: EnforcementEvent;
}): Promise<EnforcementOutcome> {
  try {
    await contractEnforce(e);
    return { endpoint: e.endpoint, delivered: true };
  } catch (err) {
    const cause = (err as { cause?: { message?: string } }).cause?.message ?? (err as Error).message;
    return { endpoint: e.endpoint, delivered: false, error: cause };
  }
}

/**
 * A contract validation (started by the API and awaited, or fired by the contract's Temporal Schedule): the
 * validation activity, then the failure event to the contract's enforcement endpoint when it failed.
 */
export async function contractValidationWorkflow(
  input: ContractValidateInput,
): Promise<ContractValidateResult & { enforcement?: EnforcementOutcome }> {
  const result = await contractValidate(input);
  if (result.status !== 'failed' || !result.enforcement_endpoint) return result;
  const event = await contractFailureEvent({ ...result, trigger: input.trigger, jobId: input.jobId });
  return {
    ...result,
    enforcement: await contractEnforcementWorkflow({ endpoint: result.enforcement_endpoint, event }),
  };
}
