import { performance } from 'node:perf_hooks';
import type { Readiness, ReadinessCheck } from '../../schemas/health';
import type { AppDeps } from '../deps';

/** How long one check may take before it counts as not answering. */
export const CHECK_TIMEOUT_MS = 2000;

class CheckTimeout extends Error {}

/** Runs `fn` once, bounded by `timeoutMs`: ok with its detail, or not ok with why (its error or the timeout). */
async function probe(fn: () => Promise<string>, timeoutMs: number): Promise<ReadinessCheck> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new CheckTimeout(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  const latency = () => Math.round((performance.now() - started) * 10) / 10;
  try {
    const detail = await Promise.race([fn(), timeout]);
    return { ok: true, latency_ms: latency(), detail };
  } catch (err) {
    return { ok: false, latency_ms: latency(), detail: (err as Error).message || String(err) };
  } finally {
    clearTimeout(timer);
  }
}

async function temporalAnswers(deps: AppDeps, timeoutMs: number): Promise<string> {
  const t = deps.temporal;
  if (!t) throw new Error('no Temporal connection configured');
  const info = await t.connection.withDeadline(Date.now() + timeoutMs, () =>
    t.connection.workflowService.getSystemInfo({}),
  );
  return `${t.address} (server ${info.serverVersion || 'unknown'})`;
}

async function storeAnswers(deps: AppDeps, timeoutMs: number): Promise<string> {
  if (!(await deps.store.ping(timeoutMs))) throw new Error(`${deps.store.driver} store is not answering`);
  return `${deps.store.driver} store answers`;
}

/** The configured workspace opens and lists its catalogs (the cheapest call every platform answers). */
async function workspaceAnswers(deps: AppDeps): Promise<string> {
  const ws = await deps.workspaces.default();
  const catalogs = await ws.listCatalogs();
  const where = ws.kind === 'databricks' ? `databricks workspace ${ws.id}` : 'local lakehouse';
  return `${where} answers (${catalogs.length} catalogs)`;
}

/**
 * Whether this API can do its work: Temporal, the store and the default workspace each answer, checked at
 * the same time, each bounded by `timeoutMs`, each with its latency.
 */
export async function readinessReport(deps: AppDeps, timeoutMs = CHECK_TIMEOUT_MS): Promise<Readiness> {
  const [temporal, store, workspace] = await Promise.all([
    probe(() => temporalAnswers(deps, timeoutMs), timeoutMs),
    probe(() => storeAnswers(deps, timeoutMs), timeoutMs),
    probe(() => workspaceAnswers(deps), timeoutMs),
  ]);
  const ready = temporal.ok && store.ok && workspace.ok;
  return { status: ready ? 'ready' : 'not_ready', checks: { temporal, store, workspace } };
}
