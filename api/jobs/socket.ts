import { WebSocketServer, type WebSocket } from 'ws';
import { isFinalJobStatus, type JobEvent } from '../../schemas/jobs';
import { getJob } from '../../store/jobs/jobs';
import type { AppDeps } from '../deps';
import { configuredKeys, keyRing, presentedKey } from '../middleware/auth';
import { stripQuery } from '../middleware/logging';
import { refuseUpgrade, type UpgradeHandler } from '../middleware/upgrade';
import { tailJobEvents } from './events';
import { jobView } from './service';

/** `/api/jobs/ws/{id}` serves any job; `/api/clone/ws/{id}` (kept for clients of the clone API) clone jobs only. */
const PATHS: { pattern: RegExp; type?: string }[] = [
  { pattern: /^\/api\/jobs\/ws\/([^/]+)\/?$/ },
  { pattern: /^\/api\/clone\/ws\/([^/]+)\/?$/, type: 'clone' },
];
const PROGRESS_EVERY_MS = 1000;

/**
 * WebSocket of one job. The client may send the text `ping` at any time and gets `pong`. The server sends
 * JobEvents (schemas/jobs.ts): first a `status` snapshot, then every event of the job's run log in order
 * (replayed from the start, then live), `progress` snapshots from the store while the job runs (the first as
 * soon as the job has planned its totals), and closes (1000) after the job's final event. With an API key
 * configured, send `Authorization: Bearer <key>` on the upgrade request, or — for browsers, which cannot set
 * headers on WebSockets — `?api_key=<key>` in the URL.
 */
export function jobSocketUpgrade(deps: AppDeps): UpgradeHandler {
  const wss = new WebSocketServer({ noServer: true });
  const ring = keyRing(configuredKeys(deps.config.api_server));
  return (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const route = PATHS.map((p) => ({ ...p, match: p.pattern.exec(url.pathname) })).find((p) => p.match);
    if (!route?.match) return false;
    const jobId = decodeURIComponent(route.match[1]);
    void (async () => {
      // Any key will do: reading a job's events needs the viewer role, the least there is.
      if (ring.enabled && !ring.identify(presentedKey(req, url))) {
        return refuseUpgrade(
          socket,
          401,
          'Unauthorized',
          JSON.stringify({ error: { code: 'UNAUTHORIZED', message: 'Missing or invalid API key', details: [] } }),
        );
      }
      const row = await getJob(deps.store.db, jobId);
      if (!row || (route.type && row.jobType !== route.type)) {
        const what = route.type ? `${route.type} job` : 'job';
        return refuseUpgrade(
          socket,
          404,
          'Not Found',
          JSON.stringify({ error: { code: 'NOT_FOUND', message: `No ${what} ${jobId}`, details: [] } }),
        );
      }
      wss.handleUpgrade(req, socket, head, (ws) => {
        deps.logger.info({ url: stripQuery(req.url ?? '/'), jobId }, 'websocket opened');
        void serve(deps, ws, jobId);
      });
    })().catch((err: unknown) => {
      deps.logger.error({ err, jobId }, 'websocket upgrade failed');
      refuseUpgrade(socket, 500, 'Internal Server Error');
    });
    return true;
  };
}

/** The job's progress as a `progress` event (nested counts, as the CLI's bars read them); null before any plan. */
async function progressEvent(deps: AppDeps, jobId: string): Promise<JobEvent | null> {
  const row = await getJob(deps.store.db, jobId);
  if (!row || isFinalJobStatus(row.status) || row.progress === null) return null;
  const { progress: p, status } = await jobView(deps, row);
  const [schemasDone, schemasTotal] = p.schemas.split('/').map(Number);
  return {
    type: 'progress',
    job_id: jobId,
    ts: new Date().toISOString(),
    level: 'info',
    message: `${status}: tables ${p.tables}${Number.isFinite(schemasTotal) ? `, schemas ${p.schemas}` : ''}`,
    status,
    schemas: { completed: schemasDone || 0, total: schemasTotal || 0 },
    tables: { completed: p.completed, failed: p.tables_failed, skipped: p.tables_skipped, total: p.total },
    bytes_copied: p.bytes_copied ?? 0,
    eta_seconds: p.eta_seconds ?? null,
  };
}

async function serve(deps: AppDeps, ws: WebSocket, jobId: string): Promise<void> {
  const abort = new AbortController();
  ws.on('close', () => abort.abort());
  ws.on('message', (data, isBinary) => {
    if (!isBinary && data.toString().trim() === 'ping') ws.send('pong');
  });
  const send = (event: JobEvent) => ws.readyState === ws.OPEN && ws.send(JSON.stringify(event));
  let lastProgress = '';
  const pushProgress = async () => {
    const event = await progressEvent(deps, jobId);
    if (!event) return;
    const { ts: _ts, ...content } = event;
    const text = JSON.stringify(content);
    if (text === lastProgress) return;
    lastProgress = text;
    send(event);
  };
  let poller: NodeJS.Timeout | undefined;
  try {
    const row = await getJob(deps.store.db, jobId);
    const status = row!.status;
    send({
      type: 'status',
      job_id: jobId,
      ts: new Date().toISOString(),
      level: 'info',
      message: `status ${status}`,
      status,
      snapshot: true,
    });
    await pushProgress();
    poller = setInterval(() => void pushProgress().catch(() => undefined), PROGRESS_EVERY_MS);
    for await (const event of tailJobEvents(deps.store, jobId, { signal: abort.signal })) send(event);
    if (!abort.signal.aborted) ws.close(1000, 'job ended');
  } catch (err) {
    deps.logger.error({ err, jobId }, 'websocket stream failed');
    ws.close(1011, 'stream failed');
  } finally {
    if (poller) clearInterval(poller);
  }
}
