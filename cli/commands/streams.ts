import type { Command } from 'commander';
import { apiClient, print, withApiOptions, type ApiOptions } from '../http';

interface StreamView {
  stream_id: string;
  run_id: string | null;
  status: string;
  source_catalog: string;
  destination_catalog: string;
  tables: string[];
  trigger_ms: number;
  lag: number;
  cycles: number;
  last_cycle_at: string | null;
  error: string | null;
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  return [header, ...rows]
    .map((r) =>
      r
        .map((c, i) => c.padEnd(widths[i]))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

const C = '/api/continuous-sync';

/** `lakeward streams start|list|restart|stop`: continuous sync streams (change data feed → MERGE) through the API. */
export function registerStreamCommands(program: Command): void {
  const streams = program.command('streams').description('Continuous sync streams (change data feed applied by MERGE)');

  withApiOptions(
    streams
      .command('start')
      .argument('<source_catalog>')
      .argument('<destination_catalog>')
      .argument('<tables...>', 'schema.table names (change data feed on)')
      .option('--trigger-ms <ms>', 'cycle interval', '30000'),
  ).action(async (source: string, destination: string, tables: string[], opts: ApiOptions & { triggerMs: string }) => {
    const res = await apiClient(opts).post<{ stream_id: string; run_id: string; status: string }>(`${C}/start`, {
      source_catalog: source,
      destination_catalog: destination,
      tables,
      trigger_ms: Number(opts.triggerMs),
    });
    print(opts, res, (r) => `stream ${r.stream_id} ${r.status} (run ${r.run_id})`);
  });

  withApiOptions(streams.command('list').option('--refresh', 're-read each run from Temporal')).action(
    async (opts: ApiOptions & { refresh?: boolean }) => {
      const list = await apiClient(opts).get<StreamView[]>(`${C}/streams?refresh=${opts.refresh ? 'true' : 'false'}`);
      print(opts, list, (ss) =>
        ss.length === 0
          ? 'no streams'
          : table(
              ['stream', 'status', 'source → destination', 'tables', 'lag', 'cycles', 'last cycle', 'error'],
              ss.map((s) => [
                s.stream_id,
                s.status,
                `${s.source_catalog} → ${s.destination_catalog}`,
                s.tables.join(','),
                String(s.lag),
                String(s.cycles),
                s.last_cycle_at ?? '-',
                s.error ?? '',
              ]),
            ),
      );
    },
  );

  for (const action of ['restart', 'stop'] as const)
    withApiOptions(streams.command(action).argument('<stream_id>')).action(async (id: string, opts: ApiOptions) => {
      const res = await apiClient(opts).post<{ stream_id: string; status: string; run_id?: string }>(
        `${C}/streams/${encodeURIComponent(id)}/${action}`,
      );
      print(opts, res, (r) => `stream ${r.stream_id} ${r.status}${r.run_id ? ` (run ${r.run_id})` : ''}`);
    });
}
