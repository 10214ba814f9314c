import { versionInfo } from '../../config/version';
import { HealthSchema, ReadinessSchema, type Health } from '../../schemas/health';
import type { AppDeps } from '../deps';
import { defineRoutes, route } from '../middleware/route';
import { CHECK_TIMEOUT_MS, readinessReport } from './readiness';

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

/** How long one reachability check answers the health polls that follow it. */
export const HEALTH_CHECK_REUSE_MS = 1000;

type Reachability = { temporal: Awaited<ReturnType<typeof temporalReachable>>; storeUp: boolean };
const lastChecks = new WeakMap<AppDeps, { at: number; result: Promise<Reachability> }>();

/**
 * Temporal and the store are asked once per HEALTH_CHECK_REUSE_MS, however many load balancers, UIs and
 * monitors poll: concurrent polls share the check in flight and later ones reuse its answer until it is a
 * second old, so a burst of health polls costs the services it checks nothing more (the bench runs 200/s).
 */
function reachability(deps: AppDeps): Promise<Reachability> {
  const now = Date.now();
  const last = lastChecks.get(deps);
  if (last && now - last.at < HEALTH_CHECK_REUSE_MS) return last.result;
  const result = Promise.all([temporalReachable(deps), deps.store.ping(CHECK_TIMEOUT_MS)]).then(
    ([temporal, storeUp]) => ({ temporal, storeUp }),
  );
  lastChecks.set(deps, { at: now, result });
  return result;
}

export async function healthReport(deps: AppDeps): Promise<Health> {
  const { temporal, storeUp } = await reachability(deps);
  const started = deps.startedAt ?? new Date();
  return {
    status: temporal.reachable && storeUp ? 'ok' : 'degraded',
    service: 'lakeward',
    temporal_ui_url: deps.config.temporal.ui_url ?? null,
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

/**
 * GET /api/health — polled by the web UI, open even with an API key; always 200 so the body can say what is
 * degraded. GET /api/health/ready — for load balancers and orchestrators: 200 only when Temporal, the store and
 * the default workspace all answer, else 503; the body names each check with its latency either way.
 */
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
    route({
      method: 'get',
      path: '/health/ready',
      summary: 'Readiness: whether Temporal, the store and the default workspace answer, each with its latency',
      security: [],
      response: { description: 'Ready: every check answered', schema: ReadinessSchema },
      otherResponses: { 503: { description: 'Not ready: the failed checks say why', schema: ReadinessSchema } },
      handler: async ({ deps, res }) => {
        const report = await readinessReport(deps);
        res.set('Cache-Control', 'no-store');
        if (report.status !== 'ready') res.status(503);
        return report;
      },
    }),
  ],
});
