import type { Command } from 'commander';
import { apiClient, print, withApiOptions, type ApiOptions } from '../http';

interface Warehouse {
  id: string;
  name: string;
  cluster_size: string;
  type: string;
  state: string;
  min_num_clusters: number;
  max_num_clusters: number;
  auto_stop_mins: number;
}
interface Action {
  id: string;
  state: string;
  accepted: boolean;
  message: string;
}
interface WarehouseEvent {
  event_type: string;
  cluster_count: number;
  event_time: string;
}

export function table(header: string[], rows: string[][]): string {
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

const rows = (ws: Warehouse[]) =>
  ws.length === 0
    ? 'no warehouses'
    : table(
        ['id', 'name', 'size', 'type', 'state', 'clusters', 'auto-stop'],
        ws.map((w) => [
          w.id,
          w.name,
          w.cluster_size,
          w.type,
          w.state,
          `${w.min_num_clusters}-${w.max_num_clusters}`,
          w.auto_stop_mins ? `${w.auto_stop_mins} min` : 'never',
        ]),
      );

interface CreateFlags extends ApiOptions {
  size: string;
  type?: string;
  minClusters?: string;
  maxClusters?: string;
  autoStop?: string;
}

/** `lakeward warehouses list|create|start|stop|events`: SQL warehouses through the API. */
export function registerWarehouseCommands(program: Command): void {
  const wh = program.command('warehouses').description('SQL warehouses (local engine pools or Databricks)');

  withApiOptions(wh.command('list').description('List warehouses')).action(async (opts: ApiOptions) => {
    const res = await apiClient(opts).get<{ warehouses: Warehouse[] }>('/api/infrastructure/warehouses');
    print(opts, res.warehouses, rows);
  });

  withApiOptions(
    wh
      .command('create')
      .argument('<name>')
      .description('Create a warehouse (it starts)')
      .requiredOption('--size <size>', 'cluster size: 2X-Small … 4X-Large')
      .option('--type <type>', 'Pro, Serverless or Classic')
      .option('--min-clusters <n>', 'min_num_clusters (default 1)')
      .option('--max-clusters <n>', 'max_num_clusters (default 1)')
      .option('--auto-stop <minutes>', 'auto_stop_mins: 0 or at least 10 (default 120)'),
  ).action(async (name: string, opts: CreateFlags) => {
    const num = (v?: string) => (v === undefined ? undefined : Number(v));
    const body = Object.fromEntries(
      Object.entries({
        name,
        cluster_size: opts.size,
        type: opts.type,
        min_num_clusters: num(opts.minClusters),
        max_num_clusters: num(opts.maxClusters),
        auto_stop_mins: num(opts.autoStop),
      }).filter(([, v]) => v !== undefined),
    );
    const w = await apiClient(opts).post<Warehouse>('/api/infrastructure/warehouses', body);
    print(opts, w, (x) => `created ${x.name} (${x.id}), ${x.state}`);
  });

  for (const cmd of ['start', 'stop'] as const)
    withApiOptions(
      wh
        .command(cmd)
        .argument('<id>')
        .description(`${cmd === 'start' ? 'Start' : 'Stop'} a warehouse`),
    ).action(async (id: string, opts: ApiOptions) => {
      const a = await apiClient(opts).post<Action>(
        `/api/infrastructure/warehouses/${encodeURIComponent(id)}/${cmd}`,
        {},
      );
      print(opts, a, (x) => (x.accepted ? `${cmd} requested (${x.state})` : `nothing to do: ${x.message}`));
    });

  withApiOptions(wh.command('events').argument('<id>').description('State transitions, oldest first')).action(
    async (id: string, opts: ApiOptions) => {
      const res = await apiClient(opts).get<{ events: WarehouseEvent[] }>(
        `/api/infrastructure/warehouses/${encodeURIComponent(id)}/events`,
      );
      print(opts, res.events, (es) =>
        es.length
          ? table(
              ['time', 'event', 'clusters'],
              es.map((e) => [e.event_time, e.event_type, String(e.cluster_count)]),
            )
          : 'no events',
      );
    },
  );
}
