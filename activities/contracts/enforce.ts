import { ApplicationFailure } from '@temporalio/common';

/** The JSON event POSTed to a contract's enforcement endpoint when a validation fails. */
export interface EnforcementEvent {
  event: 'contract_validation_failed';
  contract_id: string;
  version: string;
  trigger: string;
  job_id: string | null;
  severity: 'error' | 'warn';
  occurred_at: string;
  failures: { table_fqn: string; validation_id: number; violations: { type: string; message: string }[] }[];
}

/**
 * POSTs the event. A network error, a timeout, 408, 429 or 5xx throws a plain error (the activity's retry
 * policy tries again with backoff); any other 4xx is the endpoint refusing it: non-retryable.
 */
export async function postEnforcementEvent(endpoint: string, event: EnforcementEvent): Promise<{ status: number }> {
  const res = await fetch(endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': 'lakeward-contracts' },
    body: JSON.stringify(event),
    signal: AbortSignal.timeout(10_000),
  });
  if (res.ok) return { status: res.status };
  const message = `enforcement endpoint ${new URL(endpoint).host} answered ${res.status}`;
  if (res.status >= 500 || res.status === 408 || res.status === 429) throw new Error(message);
  throw ApplicationFailure.create({ type: 'EnforcementRefused', message, nonRetryable: true });
}
