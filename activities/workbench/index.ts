import { randomUUID } from 'node:crypto';
import { Context } from '@temporalio/activity';
import { isPlatformError } from '../../platform/errors';
import type { WorkspaceResolver } from '../../platform/workspace-resolver';
import type { Store } from '../../store/db';
import { setCellOutput } from '../../store/workbench/notebooks';
import { endStatement, getStatement, insertStatement } from '../../store/workbench/statements';
import { stopOnCancel, withHeartbeat } from '../clone/heartbeat';
import { errorCodeOf, rowsText } from './logic/result-text';
import { cellOutputOf } from './logic/cell-output';

export interface NotebookCellRun {
  jobId: string;
  notebookId: string;
  cellId: string;
  /** The cell's SQL as written, and as checked and qualified when the run was asked for. */
  statement: string;
  sql: string;
  caller: string;
  rowLimit: number;
  timeoutSeconds: number;
}

export interface NotebookCellOutcome {
  cellId: string;
  statementId: string;
  state: 'SUCCEEDED' | 'FAILED' | 'CANCELED';
  rowCount: number;
  error: string | null;
}

/**
 * Workbench activities: one notebook SQL cell run as a workbench statement (in the caller's history, its result
 * kept an hour) with its output stored in the cell. A statement that fails is an outcome, not an activity
 * failure: the run stops there and the remaining cells are skipped.
 */
export function createWorkbenchActivities(deps: { store: Store; workspaces: WorkspaceResolver }) {
  return {
    async runNotebookCell(run: NotebookCellRun): Promise<NotebookCellOutcome> {
      return withHeartbeat(async () => {
        const db = deps.store.db;
        const ws = stopOnCancel(await deps.workspaces.default());
        const statementId = randomUUID();
        await insertStatement(db, {
          id: statementId,
          caller: run.caller,
          statement: run.statement,
          rowLimit: run.rowLimit,
          source: `notebook:${run.notebookId}/${run.cellId}`,
        });
        const started = Date.now();
        try {
          const r = await ws.executeStatement(run.sql, {
            rowLimit: run.rowLimit,
            timeoutMs: run.timeoutSeconds * 1000,
            signal: Context.current().cancellationSignal,
          });
          await endStatement(db, statementId, {
            state: 'SUCCEEDED',
            columns: r.columns,
            rows: rowsText(r.rows),
            truncated: r.truncated,
            durationMs: Date.now() - started,
          });
        } catch (err) {
          if (!isPlatformError(err) || err.retryable) throw err;
          await endStatement(db, statementId, {
            state: err.code === 'CANCELED' ? 'CANCELED' : 'FAILED',
            errorCode: errorCodeOf(err.code),
            errorMessage: err.message,
            durationMs: Date.now() - started,
          });
        }
        const stmt = (await getStatement(db, statementId))!;
        await setCellOutput(db, run.notebookId, run.cellId, cellOutputOf(stmt));
        return {
          cellId: run.cellId,
          statementId,
          state: stmt.state as NotebookCellOutcome['state'],
          rowCount: stmt.rows?.length ?? 0,
          error: stmt.errorMessage,
        };
      });
    },
  };
}

export type WorkbenchActivities = ReturnType<typeof createWorkbenchActivities>;
