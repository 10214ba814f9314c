import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { WebSocketServer, type WebSocket } from 'ws';
import { getJob } from '../../store/jobs/jobs';
import type { AppDeps } from '../deps';
import { isFinal } from './job-view';
import { liveState } from './live-status';
import { tailJobEvents } from './events';
import { refuseUpgrade, type UpgradeHandler } from '../middleware/upgrade';

const PATH = /^\/api\/clone\/ws\/([^/]+)\/?$/;
const PROGRESS_EVERY_MS = 1000;

/**
 * WebSocket /api/clone/ws/{job_id}. The client may send the text `ping` at any time and gets `pong`. The
 * server sends JSON events: first a `status` snapshot, then every event of the job's run log in order
 * (replayed from the start, then live), `progress` snapshots while the job runs, and closes (1000) after the
 * job's final event. With an API key configured, send `Authorization: Bearer <key>` on the upgrade request,
 * or — for browsers, which cannot set headers on WebSockets — `?api_key=<key>` in the URL.
 */
export function cloneSocketUpgrade(deps: AppDeps): UpgradeHandler {
  const wss = new WebSocketServer({ noServer: true });
  const key = deps.config.api_server.api_key;
  return (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const match = PATH.exec(url.pathname);
    if (!match) return false;
    const jobId = decodeURIComponent(match[1]);
    void (async () => {
      if (key && !keyMatches(key, presentedKey(req, url))) {
        return refuseUpgrade(
          socket,
          401,
          'Unauthorized',
          JSON.stringify({ error: { code: 'UNAUTHORIZED', message: 'Missing or invalid API key', details: [] } }),
        );
      }
      const row = await getJob(deps.store.db, jobId);
      if (!row || row.jobType !== 'clone') {
        return refuseUpgrade(
          socket,
          404,
          'Not Found',
          JSON.stringify({ error: { code: 'NOT_FOUND', message: `No clone job ${jobId}`, details: [] } }),
        );
      }
      wss.handleUpgrade(req, socket, head, (ws) => void serve(deps, ws, jobId));
    })().catch((err: unknown) => {
      deps.logger.error({ err, jobId }, 'websocket upgrade failed');
      refuseUpgrade(socket, 500, 'Internal Server Error');
    });
    return true;
  };
}

async function serve(deps: AppDeps, ws: WebSocket, jobId: string): Promise<void> {
  const abort = new AbortController();
  ws.on('close', () => abort.abort());
  ws.on('message', (data, isBinary) => {
    if (!isBinary && data.toString().trim() === 'ping') ws.send('pong');
  });
  const send = (event: object) => ws.readyState === ws.OPEN && ws.send(JSON.stringify(event));
  let lastProgress = '';
  const pushProgress = async () => {
    const row = await getJob(deps.store.db, jobId);
    if (!row || isFinal(row.status) || !deps.temporal) return;
    const live = await liveState(deps.temporal.client, jobId);
    const text = JSON.stringify(live.progress);
    if (live.progress && text !== lastProgress) {
      lastProgress = text;
      send({ type: 'progress', job_id: jobId, ...live.progress });
    }
  };
  let poller: NodeJS.Timeout | undefined;
  try {
    const row = await getJob(deps.store.db, jobId);
    let status = row!.status;
    if (!isFinal(status) && deps.temporal)
      status = (await liveState(deps.temporal.client, jobId).catch(() => null))?.status ?? status;
    send({ type: 'status', job_id: jobId, status, snapshot: true, timestamp: new Date().toISOString() });
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

function presentedKey(req: IncomingMessage, url: URL): string | null {
  const header = req.headers.authorization;
  const bearer = header ? /^Bearer\s+(.+)$/i.exec(header.trim()) : null;
  return bearer?.[1] ?? url.searchParams.get('api_key');
}

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();
function keyMatches(expected: string, given: string | null): boolean {
  return given !== null && timingSafeEqual(digest(given), digest(expected));
}
