import { ApplicationFailure, proxyActivities, uuid4, workflowInfo } from '@temporalio/workflow';
import type { AutomationActivities } from '../../activities/automation';
import type { PlaybookExecutionInput } from './definitions';

// Book-keeping in the store: short timeouts, so work held by a worker that died is retried elsewhere soon.
const { beginPlaybookExecution, recordPlaybookAction, finishPlaybookExecution } = proxyActivities<AutomationActivities>(
  {
    startToCloseTimeout: '15 seconds',
    retry: { initialInterval: '1 second', maximumInterval: '30 seconds', maximumAttempts: 10 },
  },
);

/** Non-webhook actions: queueing a job, tagging, notifying. A logical error (InvalidInput) fails at once. */
const { runPlaybookAction } = proxyActivities<AutomationActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 3 },
});

function webhookActivity(maxAttempts: number) {
  // Each attempt is one delivery (10 s timeout inside); 408/429/5xx/network errors retry with backoff, any other
  // refusal is non-retryable. The webhook-id is an input, so every attempt sends the same one.
  return proxyActivities<AutomationActivities>({
    startToCloseTimeout: '20 seconds',
    retry: {
      initialInterval: '1 second',
      backoffCoefficient: 2,
      maximumInterval: '30 seconds',
      maximumAttempts: maxAttempts,
    },
  }).runPlaybookAction;
}

function failureText(err: unknown): string {
  let e = err as { message?: string; cause?: unknown } | undefined;
  while (e?.cause) e = e.cause as typeof e;
  return e?.message ?? String(err);
}

/** What a dry run shows for an action: its rendered parameters, without a sealed secret. */
function shown(params: Record<string, unknown>): Record<string, unknown> {
  const { secret_sealed: sealed, ...rest } = params;
  return sealed ? { ...rest, secret_set: true } : rest;
}

/**
 * One execution of a playbook (`playbook-<id>-<event_id>`, `playbook-<id>-manual-…` or a schedule's run): checks
 * the condition and the hourly limit, runs the actions in order (on_failure stop skips the rest) and records each
 * action's status, attempts, output and error. A dry run performs nothing.
 */
export async function playbookExecutionWorkflow(input: PlaybookExecutionInput): Promise<{ status: string }> {
  const begun = await beginPlaybookExecution(input);
  if (begun.status !== 'running') return { status: begun.status };
  let stopped = false;
  for (let index = 0; index < begun.actions.length; index++) {
    const action = begun.actions[index];
    const params = begun.params[index];
    if (stopped) {
      await recordPlaybookAction({ executionId: input.executionId, index, result: { status: 'skipped' } });
      continue;
    }
    if (input.dryRun) {
      const result = { status: 'dry_run' as const, output: { would_run: shown(params) } };
      await recordPlaybookAction({ executionId: input.executionId, index, result });
      continue;
    }
    const webhookId = `msg_${uuid4().replace(/-/g, '')}`;
    const run = action.type === 'webhook' ? webhookActivity(begun.webhookMaxAttempts) : runPlaybookAction;
    try {
      const output = await run({
        executionId: input.executionId,
        playbookId: input.playbookId,
        index,
        params,
        event: input.event,
        webhookId,
      });
      await recordPlaybookAction({
        executionId: input.executionId,
        index,
        result: { status: 'succeeded', output, error: null },
      });
    } catch (err) {
      await recordPlaybookAction({
        executionId: input.executionId,
        index,
        result: { status: 'failed', error: failureText(err) },
      });
      if (action.on_failure === 'stop') stopped = true;
    }
  }
  const status = await finishPlaybookExecution({ executionId: input.executionId });
  return { status };
}

/** A firing of a schedule-triggered playbook (started by its cron workflow): an execution with a `schedule` event. */
export async function playbookScheduledWorkflow(input: {
  playbookId: string;
  /** The firing's instant (the cron workflow gives it; a Temporal Schedule's run has it as a search attribute). */
  scheduledAt?: string;
}): Promise<{ status: string }> {
  const info = workflowInfo();
  const attr = info.searchAttributes?.TemporalScheduledStartTime?.[0];
  const scheduledAt =
    input.scheduledAt ??
    (attr instanceof Date ? attr.toISOString() : typeof attr === 'string' ? attr : info.startTime.toISOString());
  if (!input.playbookId) throw ApplicationFailure.nonRetryable('playbookId is required');
  return playbookExecutionWorkflow({
    executionId: info.workflowId,
    playbookId: input.playbookId,
    trigger: 'schedule',
    eventId: null,
    event: {
      id: null,
      type: 'schedule',
      severity: 'info',
      table_fqn: null,
      job_id: null,
      message: `scheduled run of playbook ${input.playbookId}`,
      occurred_at: scheduledAt,
      scheduled_at: scheduledAt,
      data: {},
    },
    dryRun: false,
    bypass: false,
  });
}
