import type { Command } from 'commander';
import type { MaintenanceResult, StorageMetricsResult } from '../../schemas/storage';
import { apiClient, print, withApiOptions, type ApiOptions } from '../http';

const formatBytes = (n: number) => `${n} bytes`;

/** `schema.table` → the API's `{schema, table}`. */
function parseTables(list: string[] | undefined): { schema: string; table: string }[] | undefined {
  if (!list?.length) return undefined;
  return list.map((t) => {
    const parts = t.split('.');
    if (parts.length !== 2 || !parts[0] || !parts[1]) throw new Error(`--table ${t}: expected schema.table`);
    return { schema: parts[0], table: parts[1] };
  });
}

const collect = (value: string, prev: string[] = []) => [...prev, value];

/** The storage report: catalog totals, then one line per table (largest first). */
export function storageReport(m: StorageMetricsResult): string {
  const lines = [
    `${m.catalog}: ${m.num_tables} tables in ${m.num_schemas} schemas, ${m.num_total_files} files, ${m.total_display}`,
    `  active ${m.active_display} (${m.active_pct}%)  time travel ${m.time_travel_display} (${m.time_travel_pct}%)  ` +
      `vacuumable ${m.vacuumable_display} (${m.vacuumable_pct}%)`,
    ...m.notes.map((n) => `  note: ${n}`),
    '',
  ];
  const width = Math.max(5, ...m.tables.map((t) => t.fqn.length));
  lines.push(
    `${'table'.padEnd(width)}  ${'total'.padStart(10)}  ${'active'.padStart(10)}  ${'time travel'.padStart(11)}  ${'vacuumable'.padStart(10)}  files`,
  );
  for (const t of [...m.tables].sort((a, b) => b.total_bytes - a.total_bytes))
    lines.push(
      `${t.fqn.padEnd(width)}  ${t.total_display.padStart(10)}  ${t.active_display.padStart(10)}  ` +
        `${t.time_travel_display.padStart(11)}  ${t.vacuumable_display.padStart(10)}  ${t.num_total_files}` +
        (t.error ? `  error: ${t.error}` : ''),
    );
  return lines.join('\n');
}

/** The OPTIMIZE / VACUUM report: one line per table, then the totals. */
export function maintenanceReport(r: MaintenanceResult): string {
  const verb = r.operation.toUpperCase();
  const lines = [
    `${verb} ${r.catalog}${r.dry_run ? ' (dry run)' : ''}${r.retention_hours !== null ? `, retention ${r.retention_hours} h` : ''}: ` +
      `job ${r.job_id} ${r.status}, ${r.succeeded} of ${r.total} tables succeeded, ${r.failed} failed`,
  ];
  for (const t of r.results) {
    const what =
      t.status === 'failed'
        ? `failed: ${t.error}`
        : r.operation === 'optimize'
          ? `${t.status}: ${t.files_removed} files (${formatBytes(t.bytes_removed)}) → ${t.files_added} files (${formatBytes(t.bytes_added)})`
          : `${t.status}: ${t.status === 'dry_run' ? 'would delete' : 'deleted'} ${t.files_removed} files (${formatBytes(t.bytes_removed)})`;
    lines.push(`  ${t.schema}.${t.table}  ${what}`);
    if (r.dry_run) for (const f of t.files) lines.push(`    ${f}`);
  }
  lines.push(
    `total: ${r.files_removed} files, ${formatBytes(r.bytes_removed)} ${r.operation === 'vacuum' ? (r.dry_run ? 'would be deleted' : 'deleted') : 'rewritten'}`,
  );
  return lines.join('\n');
}

interface MaintenanceOpts extends ApiOptions {
  table?: string[];
  dryRun?: boolean;
  retentionHours?: string;
  allowShortRetention?: boolean;
}

function maintenance(operation: 'optimize' | 'vacuum') {
  return async (catalog: string, opts: MaintenanceOpts) => {
    const body: Record<string, unknown> = {
      source_catalog: catalog,
      tables: parseTables(opts.table),
      dry_run: Boolean(opts.dryRun),
    };
    if (operation === 'vacuum') {
      if (opts.retentionHours !== undefined) body.retention_hours = Number(opts.retentionHours);
      if (opts.allowShortRetention) body.allow_short_retention = true;
    }
    const res = await apiClient(opts).post<MaintenanceResult | { job_id: string; status: string; message: string }>(
      `/api/${operation}`,
      body,
    );
    print(opts, res, (r) => ('results' in r ? maintenanceReport(r) : r.message));
  };
}

/** `lakeward storage|optimize|vacuum`: storage metrics and maintenance through the API. */
export function registerStorageCommands(program: Command): void {
  withApiOptions(
    program
      .command('storage')
      .description('Storage of a catalog: total, active, time-travel and vacuumable bytes per table')
      .argument('<catalog>')
      .option('--schema <glob>', 'only schemas matching this name or * glob')
      .option('--table <glob>', 'only tables matching this name or * glob'),
  ).action(async (catalog: string, opts: ApiOptions & { schema?: string; table?: string }) => {
    const m = await apiClient(opts).post<StorageMetricsResult>('/api/storage-metrics', {
      source_catalog: catalog,
      schema_filter: opts.schema,
      table_filter: opts.table,
    });
    print(opts, m, storageReport);
  });
  withApiOptions(
    program
      .command('optimize')
      .description('OPTIMIZE (compact small files) the tables of a catalog, as a storage job')
      .argument('<catalog>')
      .option('--table <schema.table>', 'a table to optimize (repeatable; default every table)', collect)
      .option('--dry-run', 'list the plan, change nothing'),
  ).action(maintenance('optimize'));
  withApiOptions(
    program
      .command('vacuum')
      .description('VACUUM (delete files past retention) the tables of a catalog, as a storage job')
      .argument('<catalog>')
      .option('--table <schema.table>', 'a table to vacuum (repeatable; default every table)', collect)
      .option('--retention-hours <n>', 'keep removed files this long (default 168)')
      .option('--allow-short-retention', 'allow a retention below 168 hours')
      .option('--dry-run', 'list the files that would be deleted, delete nothing'),
  ).action(maintenance('vacuum'));
}
