import WebSocket from 'ws';
import type { ApiClient } from './http';
import type { ProgressView, StreamEvent } from './progress';

const KEEPALIVE_MS = 20_000;
const POLL_MS = 1_000;
const FINAL = new Set(['completed', 'failed', 'cancelled', 'aborted']); // `cancelling` is not final: its end comes

/**
 * Feeds a job's events to `view` until the job ends: over the WebSocket /api/jobs/ws/{id} (any job type; sending `ping`
 * as keep-alive), or, if the socket cannot be opened (a proxy without WebSocket support), by polling the
 * job record once a second.
 */
export async function followJob(
  api: ApiClient,
  apiKey: string | undefined,
  jobId: string,
  view: ProgressView,
): Promise<void> {
  const opened = await followSocket(api.baseUrl, apiKey, jobId, view);
  if (!opened) await followByPolling(api, jobId, view);
}

function followSocket(
  baseUrl: string,
  apiKey: string | undefined,
  jobId: string,
  view: ProgressView,
): Promise<boolean> {
  return new Promise((resolve) => {
    const url = `${baseUrl.replace(/^http/, 'ws')}/api/jobs/ws/${encodeURIComponent(jobId)}`;
    const ws = new WebSocket(url, { headers: apiKey ? { Authorization: `Bearer ${apiKey}` } : {} });
    let open = false;
    let keepalive: NodeJS.Timeout | undefined;
    ws.on('open', () => {
      open = true;
      keepalive = setInterval(() => ws.send('ping'), KEEPALIVE_MS);
    });
    ws.on('message', (data) => {
      const text = data.toString();
      if (text === 'pong') return;
      try {
        view.event(JSON.parse(text) as StreamEvent);
      } catch {
        // a non-JSON frame is not an event; ignore it
      }
    });
    ws.on('close', () => {
      clearInterval(keepalive);
      resolve(open);
    });
    ws.on('error', () => {
      if (!open) resolve(false);
    });
  });
}

interface JobRecord {
  status: string;
  progress?: { completed: number; total: number; tables_failed?: number; tables_skipped?: number };
}

async function followByPolling(api: ApiClient, jobId: string, view: ProgressView): Promise<void> {
  let last = '';
  for (;;) {
    const job = await api.get<JobRecord>(`/api/jobs/${encodeURIComponent(jobId)}`);
    if (job.status !== last) view.event({ type: 'status', status: job.status, message: `status ${job.status}` });
    last = job.status;
    if (job.progress) view.event({ type: 'progress', tables: { total: job.progress.total } });
    if (FINAL.has(job.status)) return;
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}
