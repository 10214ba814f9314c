import type { Client, WorkflowHandle } from '@temporalio/client';

/** Every run of a workflow chain (following continue-as-new) with its history length as Temporal reports it. */
export async function runLengths(
  client: Client,
  workflowId: string,
  firstRunId: string,
): Promise<{ runId: string; historyLength: number; childIds: string[] }[]> {
  const out: { runId: string; historyLength: number; childIds: string[] }[] = [];
  let runId: string | undefined = firstRunId;
  while (runId) {
    const handle: WorkflowHandle = client.workflow.getHandle(workflowId, runId);
    const { historyLength } = await handle.describe();
    const history = await handle.fetchHistory();
    const events = history.events ?? [];
    const childIds = events.flatMap((e) =>
      e.childWorkflowExecutionStartedEventAttributes?.workflowExecution
        ? [
            `${e.childWorkflowExecutionStartedEventAttributes.workflowExecution.workflowId}|${e.childWorkflowExecutionStartedEventAttributes.workflowExecution.runId}`,
          ]
        : [],
    );
    out.push({ runId, historyLength, childIds });
    runId = events.at(-1)?.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId ?? undefined;
  }
  return out;
}

/** Longest run history of the job workflow and of every schema workflow it started, and the run counts. */
export async function jobHistoryStats(client: Client, jobId: string, firstRunId: string) {
  const parent = await runLengths(client, jobId, firstRunId);
  const children = await Promise.all(
    parent
      .flatMap((r) => r.childIds)
      .map((pair) => {
        const [id, run] = pair.split('|');
        return runLengths(client, id, run);
      }),
  );
  const childRuns = children.flat();
  return {
    parentRuns: parent.length,
    parentMax: Math.max(...parent.map((r) => r.historyLength)),
    childCount: children.length,
    childRuns: childRuns.length,
    childMax: Math.max(0, ...childRuns.map((r) => r.historyLength)),
    totalEvents: parent.reduce((n, r) => n + r.historyLength, 0) + childRuns.reduce((n, r) => n + r.historyLength, 0),
  };
}
