import { ActivityFailure, ApplicationFailure } from '@temporalio/common';

/** Texts of Temporal's wrapper failures: they say that something failed, never what. */
const WRAPPER_MESSAGES = new Set([
  'Activity task failed',
  'Child Workflow execution failed',
  'Workflow execution failed',
]);

/**
 * The cause of a failure, for a job's `error`, its run log and its notification: the message at the end of the
 * failure chain (the platform's own words), prefixed with the step that failed (the innermost activity's type),
 * e.g. `prepareTarget: CATALOG_NOT_FOUND: catalog nope does not exist`. Wrappers (WorkflowFailedError →
 * ChildWorkflowFailure → ActivityFailure) are skipped. One helper for every job type; pure, so workflows use it.
 */
export function rootCauseMessage(err: unknown): string {
  let step: string | undefined;
  let message: string | undefined;
  const seen = new Set<unknown>();
  for (let e: unknown = err; e && !seen.has(e); e = (e as { cause?: unknown }).cause) {
    seen.add(e);
    if (e instanceof ActivityFailure && e.activityType) step = e.activityType;
    const text = e instanceof Error ? e.message : typeof e === 'string' ? e : undefined;
    if (text && !WRAPPER_MESSAGES.has(text)) message = withType(e, text);
  }
  const cause = message ?? (err instanceof Error ? err.message : String(err));
  return step && !cause.startsWith(`${step}:`) ? `${step}: ${cause}` : cause;
}

/** `ApplicationFailure` types that say more than the class name (`NotFound`, `PermissionDenied`, …) lead the text. */
function withType(e: unknown, text: string): string {
  if (!(e instanceof ApplicationFailure) || !e.type || e.type === 'Error' || text.includes(e.type)) return text;
  return `${e.type}: ${text}`;
}
