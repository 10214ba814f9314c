import { z } from 'zod';
import {
  CoverageSchema,
  FailureSampleSchema,
  MultiRunResultSchema,
  RunAcceptedSchema,
  RunBodySchema,
  RunIdParamsSchema,
  RunListQuerySchema,
  RunResultSchema,
  SamplesQuerySchema,
  SegmentedResultSchema,
  SegmentedRunBodySchema,
  type SegmentedResult,
} from '../../schemas/data-quality';
import { checkCountsByTable, checkTotals, enabledChecks } from '../../store/data-quality/checks';
import { profiledTableCount } from '../../store/data-quality/profiles';
import { failureSamples, latestRunPerTable, listRuns } from '../../store/data-quality/runs';
import { HttpError } from '../middleware/http-error';
import { route } from '../middleware/route';
import { dqWorkspace, tableShape } from './checks-service';
import { directWorkflowId, executeDqWorkflow } from './direct-workflow';
import { requireRun, runsOfJob, runView, startRun, waitForJob } from './run-service';

const G = '/governance/dqx';
const DQ = '/data-quality';

const pct = (part: number, whole: number, digits = 2) =>
  whole === 0 ? 0 : Math.round((part / whole) * 100 * 10 ** digits) / 10 ** digits;

export const runRoutes = [
  route({
    method: 'post',
    path: `${G}/run`,
    summary: 'Run the enabled checks of a table (or catalog.schema.all, catalog.all, all) as a dq job; waits for it',
    request: { body: RunBodySchema },
    response: {
      description: 'The run result (one table) or the per-table results',
      schema: z.union([RunResultSchema, MultiRunResultSchema, RunAcceptedSchema]),
    },
    otherResponses: {
      202: { description: 'Still running after wait_seconds: read it later by run_id', schema: RunAcceptedSchema },
    },
    errors: { 409: 'No enabled checks', 429: 'Too many dq jobs waiting' },
    handler: async ({ deps, input: { body }, res }) => {
      const { jobId, tables } = await startRun(deps, body);
      const job = await waitForJob(deps, jobId, body.wait_seconds * 1000);
      const runs = job ? await runsOfJob(deps.store.db, jobId) : [];
      if (!job || runs.length === 0) {
        res.status(202);
        const status = job?.status ?? 'running';
        const message = job
          ? `dq job ${jobId} ended ${status}${job.error ? `: ${job.error}` : ''}`
          : `dq job ${jobId} is still running`;
        return { job_id: jobId, run_id: tables[0].runId, status, message };
      }
      const single = tables.length === 1 && tables[0].runId === jobId;
      if (single) return runView(runs[0]);
      const results = runs.map(runView);
      const passed = results.filter((r) => r.status === 'completed' && r.pass_rate >= 95).length;
      return {
        run_id: jobId,
        job_id: jobId,
        scope: body.table_fqn,
        status: job.status,
        tables_checked: results.length,
        passed,
        failed: results.length - passed,
        results,
      };
    },
  }),
  route({
    method: 'get',
    path: `${G}/runs/:run_id`,
    summary: 'A stored run result (a table run id, or a multi-table job id: its first table)',
    request: { params: RunIdParamsSchema },
    response: { description: 'The run', schema: RunResultSchema },
    errors: { 404: 'No such run' },
    handler: async ({ deps, input: { params } }) => runView(await requireRun(deps, params.run_id)),
  }),
  route({
    method: 'get',
    path: `${G}/runs`,
    summary: 'Run results, newest first, optionally of one table',
    request: { query: RunListQuerySchema },
    response: { description: 'Runs', schema: z.array(RunResultSchema) },
    handler: async ({ deps, input: { query: q } }) =>
      (await listRuns(deps.store.db, { tableFqn: q.table_fqn, limit: q.limit, offset: q.offset })).map(runView),
  }),
  route({
    method: 'get',
    path: `${G}/dashboard`,
    summary: 'Check counts, the latest run per table (worst first) and the overall pass rate over those runs',
    response: {
      description: 'Dashboard',
      schema: z.object({
        total_checks: z.number(),
        enabled_checks: z.number(),
        tables_with_checks: z.number(),
        profiled_tables: z.number(),
        tables_run: z.number(),
        overall_pass_rate: z.number(),
        total_rows: z.number(),
        invalid_rows: z.number(),
        latest_runs: z.array(RunResultSchema),
      }),
    },
    handler: async ({ deps }) => {
      const [totals, latest, profiled] = await Promise.all([
        checkTotals(deps.store.db),
        latestRunPerTable(deps.store.db),
        profiledTableCount(deps.store.db),
      ]);
      const total = latest.reduce((s, r) => s + r.totalRows, 0);
      const valid = latest.reduce((s, r) => s + r.validRows, 0);
      return {
        total_checks: totals.total,
        enabled_checks: totals.enabled,
        tables_with_checks: totals.tables,
        profiled_tables: profiled,
        tables_run: latest.length,
        overall_pass_rate: total === 0 ? 100 : pct(valid, total),
        total_rows: total,
        invalid_rows: total - valid,
        latest_runs: latest.map(runView),
      };
    },
  }),
  route({
    method: 'get',
    path: `${DQ}/failure-samples`,
    summary: 'Failing rows kept by runs (at most 10 per run) with the checks each failed',
    request: { query: SamplesQuerySchema },
    response: { description: 'Samples', schema: z.array(FailureSampleSchema) },
    handler: async ({ deps, input: { query: q } }) =>
      (await failureSamples(deps.store.db, { runId: q.run_id, tableFqn: q.table_fqn, limit: q.limit })).map((s) => ({
        run_id: s.runId,
        table_fqn: s.tableFqn,
        sample_index: s.sampleIndex,
        row_data: s.rowData,
        failed_checks: s.failedChecks,
        sampled_at: s.sampledAt.toISOString(),
      })),
  }),
  route({
    method: 'post',
    path: `${DQ}/segmented-run`,
    summary: 'Per-segment totals and pass rates of the row-level checks, from one grouped scan (100 segments + other)',
    role: 'viewer',
    request: { body: SegmentedRunBodySchema },
    response: { description: 'Segments, worst pass rate first', schema: SegmentedResultSchema },
    errors: { 404: 'The table does not exist', 409: 'No enabled checks', 422: 'No such segment column' },
    handler: async ({ deps, input: { body } }) => {
      const checks = await enabledChecks(deps.store.db, body.table_fqn, body.check_ids);
      if (checks.length === 0)
        throw new HttpError(409, 'NO_ENABLED_CHECKS', `${body.table_fqn} has no enabled checks`, [
          { path: 'body.table_fqn', message: 'no enabled checks' },
        ]);
      const shape = await tableShape(await dqWorkspace(deps), body.table_fqn);
      if (!shape.columns.some((c) => c.name.toLowerCase() === body.segment_column.toLowerCase()))
        throw new HttpError(422, 'INVALID_INPUT', `${body.table_fqn} has no column ${body.segment_column}`, [
          { path: 'body.segment_column', message: 'no such column' },
        ]);
      const runId = directWorkflowId('segment');
      const req = { runId, tableFqn: body.table_fqn, segmentColumn: body.segment_column, checkIds: body.check_ids };
      return executeDqWorkflow<SegmentedResult>(deps, 'dqSegmentedRunWorkflow', runId, req);
    },
  }),
  route({
    method: 'get',
    path: `${DQ}/coverage/:catalog`,
    summary: 'Tables of a catalog with and without checks, with check counts and coverage_pct',
    request: { params: z.object({ catalog: z.string().min(1).max(255) }) },
    response: { description: 'Coverage', schema: CoverageSchema },
    errors: { 404: 'No such catalog' },
    handler: async ({ deps, input: { params } }) => {
      const ws = await dqWorkspace(deps);
      const schemas = (await ws.listSchemas(params.catalog)).filter((s) => s.name !== 'information_schema');
      const tables = (await Promise.all(schemas.map((s) => ws.listTables(params.catalog, s.name))))
        .flat()
        .map((t) => `${t.catalog}.${t.schema}.${t.name}`)
        .sort();
      const counts = await checkCountsByTable(deps.store.db, params.catalog);
      const covered = tables
        .filter((t) => (counts.get(t.toLowerCase())?.checkCount ?? 0) > 0)
        .map((t) => {
          const c = counts.get(t.toLowerCase())!;
          return { table_fqn: t, check_count: c.checkCount, enabled_count: c.enabledCount };
        });
      const coveredSet = new Set(covered.map((c) => c.table_fqn));
      const uncovered = tables.filter((t) => !coveredSet.has(t)).map((t) => ({ table_fqn: t }));
      return {
        catalog: params.catalog,
        total_tables: tables.length,
        covered: covered.length,
        uncovered: uncovered.length,
        coverage_pct: pct(covered.length, tables.length, 1),
        covered_tables: covered,
        uncovered_tables: uncovered,
      };
    },
  }),
];
