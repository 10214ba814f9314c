import type { Command } from 'commander';
import { apiClient, print, withApiOptions, type ApiOptions } from '../http';

interface Item {
  destination: string;
  job_id: string;
  status: string;
  fanout_job_id: string;
}

/** `lakeward multi-clone <source> <destination...>`: one fan-out job, one clone job per destination catalog. */
export function registerFanoutCommands(program: Command): void {
  withApiOptions(
    program
      .command('multi-clone')
      .description('Clone one catalog to several destination catalogs (at most clone.fanout_max_parallel at once)')
      .argument('<source_catalog>')
      .argument('<destination_catalogs...>')
      .option('--clone-type <type>', 'DEEP or SHALLOW'),
  ).action(async (source: string, destinations: string[], opts: ApiOptions & { cloneType?: string }) => {
    const items = await apiClient(opts).post<Item[]>('/api/multi-clone', {
      source_catalog: source,
      destinations: destinations.map((catalog) => ({ catalog })),
      ...(opts.cloneType ? { clone_type: opts.cloneType } : {}),
    });
    print(opts, items, (list) =>
      [
        `fan-out job ${list[0]?.fanout_job_id} (its summary: lakeward job ${list[0]?.fanout_job_id})`,
        ...list.map(
          (i) =>
            `  ${i.destination.padEnd(Math.max(...list.map((x) => x.destination.length)))}  ${i.job_id}  ${i.status}`,
        ),
      ].join('\n'),
    );
  });
}
