import type { Command } from 'commander';
import type { z } from 'zod';
import type { EstimateResult, IncrementalCheckResultSchema, SyncJobAcceptedSchema, SyncPlan } from '../../schemas/sync';
import { apiClient, print, withApiOptions, type ApiClient, type ApiOptions } from '../http';

type CheckResult = z.infer<typeof IncrementalCheckResultSchema>;
type Accepted = z.infer<typeof SyncJobAcceptedSchema>;

const collect = (value: string, prev: string[] = []) => [...prev, value];

function table(rows: string[][]): string[] {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) =>
    r
      .map((c, i) => c.padEnd(widths[i]))
      .join('  ')
      .trimEnd(),
  );
}

/** The check: one line per table with its reason, versions and the path a sync would take. */
export function checkReport(c: CheckResult): string {
  const rows = [['table', 'reason', 'recorded', 'current', 'path', 'detail']];
  for (const t of c.tables)
    rows.push([
      t.table,
      t.reason,
      t.recorded_version === null ? '-' : String(t.recorded_version),
      t.current_version === null ? '-' : String(t.current_version),
      t.path === 'merge' ? 'MERGE' : t.path === 'copy' ? 'copy' : '-',
      t.detail,
    ]);
  return [`${c.schema}: ${c.tables_needing_sync} of ${c.tables.length} tables need syncing`, '', ...table(rows)].join(
    '\n',
  );
}

/** A sync plan: one line per action. */
export function planReport(p: SyncPlan & { dry_run?: boolean }): string {
  const rows = [['action', 'object', 'path', 'detail']];
  for (const a of p.actions)
    rows.push([a.action, a.name ? `${a.kind} ${a.schema}.${a.name}` : `schema ${a.schema}`, a.path ?? '-', a.detail]);
  const head = `${p.dry_run ? 'dry run: ' : ''}sync ${p.source_catalog} → ${p.destination_catalog}: ${p.actions.length} actions${p.drop_extra ? '' : ' (drop_extra off)'}`;
  return [head, ...(p.actions.length ? ['', ...table(rows)] : [])].join('\n');
}

export function estimateReport(e: EstimateResult): string {
  const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
  const lines = [
    `${e.source_catalog}: ${e.total_tables} tables, ${mb(e.total_bytes)} in ${e.total_files} files`,
    `estimated duration: DEEP ${e.estimated_seconds.DEEP} s, SHALLOW ${e.estimated_seconds.SHALLOW} s ` +
      `(${mb(e.throughput.bytes_per_second)}/s, ${e.throughput.tables_per_second} tables/s from ${e.throughput.source === 'history' ? `${e.throughput.jobs} past jobs` : 'defaults: no job ran yet'})`,
  ];
  const s = e.selective;
  if (e.destination_catalog)
    lines.push(
      s
        ? `selective into ${e.destination_catalog}: ${s.tables_to_clone} to clone, ${s.tables_in_sync} in sync, ` +
            `${mb(s.size_bytes)} to copy, savings ${s.savings_pct}% → ${s.recommended}`
        : `selective: ${e.destination_catalog} does not exist`,
    );
  const rows = [['table', 'size', 'files']];
  for (const t of [...e.tables].sort((a, b) => (b.size_bytes ?? 0) - (a.size_bytes ?? 0)))
    rows.push([`${t.schema}.${t.table}`, t.size_bytes === null ? '-' : mb(t.size_bytes), String(t.num_files ?? '-')]);
  return [...lines, '', ...table(rows)].join('\n');
}

/** Polls the job until its end is recorded, then prints its status and how each table went. */
async function waitFor(api: ApiClient, opts: ApiOptions, jobId: string): Promise<void> {
  for (;;) {
    const job = await api.get<{
      status: string;
      completed_at: string | null;
      error?: string | null;
      result?: unknown;
    }>(`/api/jobs/${encodeURIComponent(jobId)}`);
    if (job.completed_at) {
      const s = (job.result ?? {}) as {
        merged?: { schema: string; table: string; change_rows: number }[];
        copied?: { schema: string; table: string }[];
        dropped?: string[];
      };
      print(opts, job, () =>
        [
          `job ${jobId} ${job.status}${job.error ? `: ${job.error}` : ''}`,
          ...(s.merged ?? []).map((m) => `  ${m.schema}.${m.table}  MERGE (${m.change_rows} change rows)`),
          ...(s.copied ?? []).map((c) => `  ${c.schema}.${c.table}  copy`),
          ...(s.dropped ?? []).map((d) => `  dropped ${d}`),
        ].join('\n'),
      );
      if (job.status !== 'completed') process.exitCode = 1;
      return;
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
}

interface IncrementalOpts extends ApiOptions {
  schema: string;
  cloneType?: string;
  warehouseId?: string;
  dryRun?: boolean;
  wait?: boolean;
}

const incrementalBody = (source: string, dest: string, o: IncrementalOpts) => ({
  source_catalog: source,
  destination_catalog: dest,
  schema_name: o.schema,
  ...(o.cloneType ? { clone_type: o.cloneType } : {}),
  ...(o.warehouseId ? { warehouse_id: o.warehouseId } : {}),
  ...(o.dryRun ? { dry_run: true } : {}),
});

/** `lakeward incremental check|sync`, `lakeward sync` and `lakeward estimate` through the API. */
export function registerSyncCommands(program: Command): void {
  const incremental = program.command('incremental').description('Incremental sync of one schema since its last clone');
  withApiOptions(
    incremental
      .command('check')
      .description(
        'Which tables of a schema changed since their last clone into the destination, and how a sync would bring them',
      )
      .argument('<source_catalog>')
      .argument('<destination_catalog>')
      .requiredOption('--schema <name>', 'the schema to check'),
  ).action(async (source: string, dest: string, opts: IncrementalOpts) => {
    const c = await apiClient(opts).post<CheckResult>('/api/incremental/check', incrementalBody(source, dest, opts));
    print(opts, c, checkReport);
  });
  withApiOptions(
    incremental
      .command('sync')
      .description('Sync the new and changed tables of a schema (MERGE of small change feeds, else a copy) as a job')
      .argument('<source_catalog>')
      .argument('<destination_catalog>')
      .requiredOption('--schema <name>', 'the schema to sync')
      .option('--clone-type <type>', 'DEEP (default) or SHALLOW for copies')
      .option('--warehouse-id <id>', 'SQL warehouse (Databricks)')
      .option('--dry-run', 'log the plan in the job, change nothing')
      .option('--wait', 'wait for the job to end and print how each table went'),
  ).action(async (source: string, dest: string, opts: IncrementalOpts) => {
    const api = apiClient(opts);
    const accepted = await api.post<Accepted>('/api/incremental/sync', incrementalBody(source, dest, opts));
    if (opts.wait) return waitFor(api, opts, accepted.job_id);
    print(opts, accepted, (a) => `${a.message}: job ${a.job_id} (${a.status})`);
  });
  withApiOptions(
    program
      .command('sync')
      .description('Two-way catalog sync: create what is missing, re-sync what changed, drop extras with --drop-extra')
      .argument('<source_catalog>')
      .argument('<destination_catalog>')
      .option('--dry-run', 'print the plan, change nothing')
      .option('--drop-extra', 'drop objects only the destination has')
      .option('--include-schemas <name>', 'only this schema (repeatable)', collect)
      .option('--exclude-schemas <name>', 'leave this schema out (repeatable)', collect)
      .option('--clone-type <type>', 'DEEP (default) or SHALLOW for copies')
      .option('--wait', 'wait for the job to end and print how each object went'),
  ).action(
    async (
      source: string,
      dest: string,
      opts: ApiOptions & {
        dryRun?: boolean;
        dropExtra?: boolean;
        includeSchemas?: string[];
        excludeSchemas?: string[];
        cloneType?: string;
        wait?: boolean;
      },
    ) => {
      const api = apiClient(opts);
      const res = await api.post<Accepted | (SyncPlan & { dry_run: true })>('/api/sync', {
        source_catalog: source,
        destination_catalog: dest,
        dry_run: Boolean(opts.dryRun),
        drop_extra: Boolean(opts.dropExtra),
        ...(opts.includeSchemas ? { include_schemas: opts.includeSchemas } : {}),
        ...(opts.excludeSchemas ? { exclude_schemas: opts.excludeSchemas } : {}),
        ...(opts.cloneType ? { clone_type: opts.cloneType } : {}),
      });
      if ('job_id' in res && opts.wait) return waitFor(api, opts, res.job_id);
      print(opts, res, (r) => ('job_id' in r ? `${r.message}: job ${r.job_id} (${r.status})` : planReport(r)));
    },
  );
  withApiOptions(
    program
      .command('estimate')
      .description('Size, files and DEEP/SHALLOW duration of a clone; with a destination, the selective block')
      .argument('<source_catalog>')
      .argument('[destination_catalog]')
      .option('--include-schemas <name>', 'only this schema (repeatable)', collect),
  ).action(async (source: string, dest: string | undefined, opts: ApiOptions & { includeSchemas?: string[] }) => {
    const e = await apiClient(opts).post<EstimateResult>('/api/estimate', {
      source_catalog: source,
      ...(dest ? { destination_catalog: dest } : {}),
      ...(opts.includeSchemas ? { include_schemas: opts.includeSchemas } : {}),
    });
    print(opts, e, estimateReport);
  });
}
