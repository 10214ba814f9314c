import type { Command } from 'commander';
import { apiClient, print, withApiOptions, type ApiOptions } from '../http';
import { table } from './warehouses';

type Wh = { id: string; name: string; size: string | null; state: string | null; type: string | null };
type Vol = { full_name: string; volume_type: string };
type Serving = {
  success: boolean;
  reason?: string;
  endpoints: { name: string; provider: string | null; is_claude: boolean }[];
};
type Spaces = { success: boolean; reason?: string; spaces: { space_id: string; title: string }[] };

const orEmpty = (rows: string[][], header: string[], empty: string) => (rows.length ? table(header, rows) : empty);

/** `lakeward auth warehouses|volumes|test-warehouse|serving-endpoints|nl-sql-spaces`: what the workspace offers. */
export function registerAuthWorkspaceCommands(auth: Command): void {
  withApiOptions(auth.command('warehouses').description('SQL warehouses of the workspace')).action(
    async (opts: ApiOptions) => {
      const r = await apiClient(opts).get<{ warehouses: Wh[] }>('/api/auth/warehouses');
      print(opts, r, (x) =>
        orEmpty(
          x.warehouses.map((w) => [w.id, w.name, w.size ?? '-', w.state ?? '-', w.type ?? '-']),
          ['id', 'name', 'size', 'state', 'type'],
          'no warehouses',
        ),
      );
    },
  );
  withApiOptions(
    auth.command('volumes').description('Volumes of the workspace').option('--catalog <name>', 'one catalog only'),
  ).action(async (opts: ApiOptions & { catalog?: string }) => {
    const q = opts.catalog ? `?catalog=${encodeURIComponent(opts.catalog)}` : '';
    const r = await apiClient(opts).get<{ volumes: Vol[] }>(`/api/auth/volumes${q}`);
    print(opts, r, (x) =>
      orEmpty(
        x.volumes.map((v) => [v.full_name, v.volume_type]),
        ['volume', 'type'],
        'no volumes',
      ),
    );
  });
  withApiOptions(auth.command('test-warehouse <warehouse_id>').description('Run SELECT 1 on a warehouse')).action(
    async (id: string, opts: ApiOptions) => {
      const r = await apiClient(opts).post<{ status: string; message: string }>('/api/auth/test-warehouse', {
        warehouse_id: id,
      });
      print(opts, r, (x) => `${x.status}: ${x.message}`);
    },
  );
  withApiOptions(auth.command('serving-endpoints').description('READY model serving endpoints')).action(
    async (opts: ApiOptions) => {
      const r = await apiClient(opts).get<Serving>('/api/auth/serving-endpoints');
      print(opts, r, (x) =>
        orEmpty(
          x.endpoints.map((e) => [e.name, e.provider ?? '-', e.is_claude ? 'yes' : 'no']),
          ['endpoint', 'provider', 'claude'],
          `no endpoints${x.reason ? ` (${x.reason})` : ''}`,
        ),
      );
    },
  );
  withApiOptions(auth.command('nl-sql-spaces').description('Genie spaces')).action(async (opts: ApiOptions) => {
    const r = await apiClient(opts).get<Spaces>('/api/auth/nl-sql-spaces');
    print(opts, r, (x) =>
      orEmpty(
        x.spaces.map((s) => [s.space_id, s.title]),
        ['space', 'title'],
        `no spaces${x.reason ? ` (${x.reason})` : ''}`,
      ),
    );
  });
}
