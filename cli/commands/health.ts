import type { Command } from 'commander';
import type { Health } from '../../schemas/health';
import { apiClient, print, withApiOptions, type ApiOptions } from '../http';

/** `lakeward health`: exit code 0 when the API, Temporal and the store are all reachable, 1 otherwise. */
export function registerHealthCommand(program: Command): void {
  withApiOptions(program.command('health').description('Check the API, Temporal and the store')).action(
    async (opts: ApiOptions) => {
      const api = apiClient(opts);
      const health = await api.get<Health>('/api/health');
      print(opts, health, (h) => {
        const mark = (ok: boolean) => (ok ? 'reachable' : 'NOT reachable');
        return [
          `${h.service} ${h.runtime.version} at ${api.baseUrl}: ${h.status}`,
          `  Temporal  ${mark(h.runtime.temporal.reachable)}  ${h.runtime.temporal.detail}`,
          `  store     ${mark(h.runtime.store.reachable)}  ${h.runtime.store.driver} ${h.runtime.store.detail}`,
        ].join('\n');
      });
      if (health.status !== 'ok') process.exitCode = 1;
    },
  );
}
