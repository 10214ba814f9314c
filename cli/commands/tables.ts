import type { Command } from 'commander';
import type { TableDetails } from '../../schemas/tables';
import { apiClient, print, withApiOptions, type ApiOptions } from '../http';

type ShowOptions = ApiOptions & { history?: string };

function describe(t: TableDetails): string {
  const width = Math.max(4, ...t.columns.map((c) => c.name.length));
  const lines = [
    `${t.full_name}  ${t.table_type}${t.format ? ` ${t.format}` : ''}${t.version === null ? '' : `  version ${t.version}`}`,
    `  owner ${t.owner ?? '-'}  size ${t.size_bytes ?? '-'} bytes  files ${t.num_files ?? '-'}`,
  ];
  if (t.comment) lines.push(`  ${t.comment}`);
  lines.push('', `columns (${t.columns.length})`);
  for (const c of t.columns) {
    const flags = [c.nullable ? '' : 'NOT NULL', c.partition ? 'PARTITION' : ''].filter(Boolean).join(' ');
    lines.push(
      `  ${c.name.padEnd(width)}  ${c.type}${flags ? `  ${flags}` : ''}${c.comment ? `  -- ${c.comment}` : ''}`,
    );
  }
  if (t.history.length) {
    lines.push('', 'history (newest first)');
    for (const h of t.history) lines.push(`  v${h.version}  ${h.timestamp}  ${h.operation}  ${h.user_name ?? ''}`);
  }
  const { quality, contracts } = t.links;
  lines.push('', `quality   ${quality ? `${quality.enabled_checks}/${quality.checks} checks enabled` : 'no checks'}`);
  lines.push(`contracts ${contracts.length ? contracts.map((c) => c.name).join(', ') : 'none'}`);
  return lines.join('\n');
}

/** `lakeward table show <catalog.schema.table>`: GET /api/tables/{full_name}. */
export function registerTableCommands(program: Command): void {
  const table = program.command('table').description("A table's columns, details and history");
  withApiOptions(table.command('show <full_name>').description('Show catalog.schema.table'))
    .option('--history <n>', 'history entries to show (default 20, 0 for none)')
    .action(async (fullName: string, opts: ShowOptions) => {
      const query = opts.history === undefined ? '' : `?history_limit=${encodeURIComponent(opts.history)}`;
      const details = await apiClient(opts).get<TableDetails>(`/api/tables/${encodeURIComponent(fullName)}${query}`);
      print(opts, details, describe);
    });
}
