import type { Command } from 'commander';
import { versionInfo } from '../../config/version';
import type { Health } from '../../schemas/health';
import { apiClient, print, withApiOptions, type ApiOptions } from '../http';

/** `lakeward version`: this CLI's versions, and the server's when the API answers. */
export function registerVersionCommand(program: Command): void {
  withApiOptions(program.command('version').description('Print the CLI and server versions')).action(
    async (opts: ApiOptions) => {
      const api = apiClient(opts);
      const server = await api.get<Health>('/api/health').then(
        (h) => ({ url: api.baseUrl, version: h.runtime.version, reachable: true }),
        () => ({ url: api.baseUrl, version: null, reachable: false }),
      );
      const info = { cli: versionInfo(), server };
      print(opts, info, (i) =>
        [
          `lakeward ${i.cli.version} (node ${i.cli.node}, Temporal SDK ${i.cli.temporal_sdk})`,
          `server   ${i.server.reachable ? `${i.server.version} at ${i.server.url}` : `not reachable at ${i.server.url}`}`,
        ].join('\n'),
      );
    },
  );
}
