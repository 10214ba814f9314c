import type { z } from 'zod';
import type { RunBodySchema, RunResult } from '../../schemas/data-quality';
import { enabledChecks, tablesWithEnabledChecks } from '../../store/data-quality/checks';
import { getRun, runsOfJob, type DqRunRow } from '../../store/data-quality/runs';
import { getJob } from '../../store/jobs/jobs';
import type { AppDeps } from '../deps';
import { newJobId } from '../jobs/job-id';
import { submitJob } from '../jobs/service';
import { HttpError } from '../middleware/http-error';
import { actorOf } from './checks-service';
import { dqJobType } from './job-type';

type RunBody = z.infer<typeof RunBodySchema>;

const noChecks = (what: string) =>
  new HttpError(409, 'NO_ENABLED_CHECKS', `${what} has no enabled checks: create or enable checks before a run`, [
    { path: 'body.table_fqn', message: 'no enabled checks' },
  ]);

/** The tables a run covers, each with its run id: the job id for one table, `<job id>-<n>` for several. */
async function planTables(deps: AppDeps, body: RunBody, jobId: string) {
  const scope = body.table_fqn;
  const parts = scope.split('.');
  if (parts.length === 3 && parts[2] !== 'all') {
    const checks = await enabledChecks(deps.store.db, scope, body.check_ids);
    if (checks.length === 0) throw noChecks(body.check_ids ? `${scope} (check_ids given)` : scope);
    return [{ runId: jobId, tableFqn: scope, checkIds: body.check_ids }];
  }
  const prefix = scope === 'all' ? '' : `${parts.slice(0, -1).join('.')}.`;
  const tables = await tablesWithEnabledChecks(deps.store.db, prefix);
  if (tables.length === 0) throw noChecks(scope === 'all' ? 'No table' : scope);
  const width = String(tables.length).length;
  return tables.map((tableFqn, i) => ({ runId: `${jobId}-${String(i + 1).padStart(width, '0')}`, tableFqn }));
}

/** Queues a dq job for the run's tables; answers with the job id and the run ids. */
export async function startRun(deps: AppDeps, body: RunBody) {
  const jobId = newJobId('dq');
  const tables = await planTables(deps, body, jobId);
  const input = {
    jobId,
    scope: body.table_fqn,
    tables,
    parallelism: body.max_parallelism,
    executedBy: actorOf(deps),
    ...(body.warehouse_id ? { warehouseId: body.warehouse_id } : {}),
  };
  const request = {
    table_fqn: body.table_fqn,
    check_ids: body.check_ids ?? null,
    warehouse_id: body.warehouse_id ?? null,
  };
  await submitJob(deps, dqJobType, { jobId, input, createdAt: new Date(), row: { request, user: input.executedBy } });
  return { jobId, tables };
}

/** Polls the job row (the store, never the workflow) until its end is recorded or `waitMs` passes. */
export async function waitForJob(deps: AppDeps, jobId: string, waitMs: number) {
  const until = Date.now() + waitMs;
  let delay = 50;
  for (;;) {
    const row = await getJob(deps.store.db, jobId);
    if (row?.completedAt) return row;
    if (Date.now() >= until) return null;
    await new Promise((r) => setTimeout(r, Math.min(delay, Math.max(1, until - Date.now()))));
    delay = Math.min(delay * 2, 500);
  }
}

export function runView(r: DqRunRow): RunResult {
  return {
    run_id: r.runId,
    job_id: r.jobId,
    table_fqn: r.tableFqn,
    total_rows: r.totalRows,
    valid_rows: r.validRows,
    invalid_rows: r.invalidRows,
    error_rows: r.errorRows,
    warning_rows: r.warningRows,
    pass_rate: r.passRate,
    checks_applied: r.checksApplied,
    check_results: r.checkResults as RunResult['check_results'],
    execution_time_ms: r.executionTimeMs,
    status: r.status === 'completed' ? 'completed' : 'failed',
    error: r.error,
    executed_at: r.executedAt.toISOString(),
    executed_by: r.executedBy,
  };
}

export async function requireRun(deps: AppDeps, runId: string): Promise<DqRunRow> {
  const run = await getRun(deps.store.db, runId);
  if (!run)
    throw new HttpError(404, 'NOT_FOUND', `No data-quality run ${runId}`, [
      { path: 'params.run_id', message: 'no such run' },
    ]);
  return run;
}

export { runsOfJob };
