import type { Request, Response } from 'express';
import type { AppDeps } from '../deps';
import { tailJobEvents } from './events';

/**
 * GET /api/clone/{id}/logs: the job's events as they happen, as NDJSON (one JSON event per line) or as
 * Server-Sent Events when the client accepts text/event-stream. The response ends with the job's final
 * event; `?follow=false` returns what is logged so far and ends at once.
 */
export async function streamJobLog(
  deps: AppDeps,
  jobId: string,
  req: Request,
  res: Response,
  follow: boolean,
): Promise<void> {
  const sse = req.accepts(['application/x-ndjson', 'text/event-stream']) === 'text/event-stream';
  res.status(200);
  res.setHeader('Content-Type', sse ? 'text/event-stream; charset=utf-8' : 'application/x-ndjson; charset=utf-8');
  res.setHeader('Cache-Control', 'no-cache');
  res.setHeader('X-Accel-Buffering', 'no');
  res.flushHeaders();
  const abort = new AbortController();
  res.on('close', () => abort.abort());
  for await (const event of tailJobEvents(deps.store, jobId, { signal: abort.signal, follow })) {
    const json = JSON.stringify(event);
    res.write(sse ? `id: ${event.seq}\nevent: ${event.type}\ndata: ${json}\n\n` : `${json}\n`);
  }
  res.end();
}
