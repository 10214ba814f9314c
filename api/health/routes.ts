import { versionInfo } from '../../config/version';
import { HealthSchema, type Health } from '../../schemas/health';
import type { AppDeps } from '../deps';
import { defineRoutes, route } from '../middleware/route';

const CHECK_TIMEOUT_MS = 2000;

async function temporalReachable(deps: AppDeps): Promise<{ reachable: boolean; detail: string }> {
  const t = deps.temporal;
  if (!t) return { reachable: false, detail: 'no Temporal connection configured' };
  const address = t.address;
  try {
    const info = await t.connection.withDeadline(Date.now() + CHECK_TIMEOUT_MS, () =>
      t.connection.workflowService.getSystemInfo({}),
    );
    return { reachable: true, detail: `${address} (server ${info.serverVersion || 'unknown'})` };
  } catch (err) {
    return { reachable: false, detail: `${address}: ${(err as Error).message}` };
  }
}

export async function healthReport(deps: AppDeps): Promise<Health> {
  const [temporal, storeUp] = await Promise.all([temporalReachable(deps), deps.store.ping(CHECK_TIMEOUT_MS)]);
  const started = deps.startedAt ?? new Date();
  return {
    status: temporal.reachable && storeUp ? 'ok' : 'degraded',
    service: 'lakeward',
    runtime: {
      ...versionInfo(),
      uptime_seconds: Math.round((Date.now() - started.getTime()) / 1000),
      workspace: deps.config.workspace.kind,
      temporal: { ...temporal, namespace: deps.config.temporal.namespace, task_queue: deps.config.temporal.task_queue },
      store: {
        reachable: storeUp,
        driver: deps.store.driver,
        detail: storeUp ? deps.store.location : `${deps.store.location}: not answering`,
      },
    },
  };
}

/** GET /api/health — polled by the web UI, open even with an API key; always 200 so the body can say what is degraded. */
export const healthRoutes = defineRoutes({
  name: 'health',
  routes: [
    route({
      method: 'get',
      path: '/health',
      summary: 'Service status, versions, and whether Temporal and the store are reachable (no API key needed)',
      security: [],
      response: { description: 'Health report', schema: HealthSchema },
      handler: ({ deps }) => healthReport(deps),
    }),
  ],
});
