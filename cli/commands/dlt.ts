import type { Command } from 'commander';
import { apiClient, print, withApiOptions, type ApiOptions } from '../http';
import { textTable } from './workbench';

interface Pipeline {
  pipeline_id: string;
  name: string;
  state: string;
  latest_updates: { state: string }[];
}

/** `lakeward dlt pipelines [--filter f] [--page-token t]`: DLT pipeline discovery (one page a call). */
export function registerDltCommands(program: Command): void {
  const dlt = program.command('dlt').description('DLT (Lakeflow Declarative Pipelines) discovery');
  withApiOptions(
    dlt
      .command('pipelines')
      .option('--filter <filter>', "passed to Databricks, e.g. name LIKE '%sales%'")
      .option('--page-token <token>', 'the next page token printed by the previous call'),
  ).action(async (opts: ApiOptions & { filter?: string; pageToken?: string }) => {
    const q = new URLSearchParams();
    if (opts.filter) q.set('filter', opts.filter);
    if (opts.pageToken) q.set('page_token', opts.pageToken);
    const page = await apiClient(opts).get<{ pipelines: Pipeline[]; next_page_token?: string }>(
      `/api/dlt/pipelines${q.size ? `?${q}` : ''}`,
    );
    print(opts, page, (p) =>
      [
        p.pipelines.length
          ? textTable(
              ['pipeline_id', 'state', 'last update', 'name'],
              p.pipelines.map((x) => [x.pipeline_id, x.state, x.latest_updates[0]?.state ?? '', x.name]),
            )
          : 'no pipelines',
        ...(p.next_page_token ? [`next page: --page-token ${p.next_page_token}`] : []),
      ].join('\n'),
    );
  });
}
