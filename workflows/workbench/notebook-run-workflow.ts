import { proxyActivities } from '@temporalio/workflow';
import { NON_RETRYABLE_FAILURE_TYPES } from '../../activities/clone/logic/failures';
import type { JobActivities } from '../../activities/jobs';
import type { NotebookCellOutcome, WorkbenchActivities } from '../../activities/workbench';
import type { NotebookRunInput } from '../../schemas/workbench';

const { runNotebookCell } = proxyActivities<WorkbenchActivities>({
  startToCloseTimeout: '2 hours',
  heartbeatTimeout: '30 seconds',
  retry: { maximumAttempts: 3, initialInterval: 1000, nonRetryableErrorTypes: [...NON_RETRYABLE_FAILURE_TYPES] },
});
const { appendJobEvents, reportJobProgress } = proxyActivities<JobActivities>({
  startToCloseTimeout: '1 minute',
  retry: { maximumAttempts: 5 },
});

export interface NotebookRunResult {
  status: 'completed' | 'failed';
  error: string | null;
  notebook_id: string;
  cells: {
    cell_id: string;
    status: 'succeeded' | 'failed' | 'skipped';
    statement_id: string | null;
    rows: number | null;
    error: string | null;
  }[];
}

/**
 * Run all (job type `notebook_run`): the notebook's SQL cells in order, one activity each, as they were when
 * the run was asked for. The first cell that fails ends the run: it is `failed`, the cells after it `skipped`.
 */
export async function notebookRunWorkflow(input: NotebookRunInput): Promise<NotebookRunResult> {
  const total = input.cells.length;
  const cells: NotebookRunResult['cells'] = input.cells.map((c) => ({
    cell_id: c.id,
    status: 'skipped',
    statement_id: null,
    rows: null,
    error: null,
  }));
  await reportJobProgress(input.jobId, { completed: 0, total, cells: `0/${total}` });
  let failed: NotebookCellOutcome | null = null;
  for (let i = 0; i < total; i++) {
    const c = input.cells[i];
    const out = await runNotebookCell({
      jobId: input.jobId,
      notebookId: input.notebookId,
      cellId: c.id,
      statement: c.content,
      sql: c.sql,
      caller: input.caller,
      rowLimit: input.rowLimit,
      timeoutSeconds: input.timeoutSeconds,
    });
    const ok = out.state === 'SUCCEEDED';
    cells[i] = {
      cell_id: c.id,
      status: ok ? 'succeeded' : 'failed',
      statement_id: out.statementId,
      rows: out.rowCount,
      error: out.error,
    };
    await appendJobEvents(input.jobId, [
      {
        event: ok ? 'status' : 'error',
        message: ok ? `cell ${c.id}: ${out.rowCount} rows` : `cell ${c.id}: ${out.error ?? out.state}`,
        level: ok ? 'info' : 'error',
        data: { cell_id: c.id, statement_id: out.statementId, state: out.state },
      },
    ]);
    await reportJobProgress(input.jobId, { completed: i + 1, total, cells: `${i + 1}/${total}` });
    if (!ok) {
      failed = out;
      const rest = input.cells.slice(i + 1).map((x) => x.id);
      if (rest.length)
        await appendJobEvents(input.jobId, [
          { event: 'warning', message: `skipped after the failure: ${rest.join(', ')}`, data: { cells: rest } },
        ]);
      break;
    }
  }
  return {
    status: failed ? 'failed' : 'completed',
    error: failed ? `cell ${failed.cellId} failed: ${failed.error ?? failed.state}` : null,
    notebook_id: input.notebookId,
    cells,
  };
}
