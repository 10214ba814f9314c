import { useEffect, useReducer, useState } from 'react';
import { jobSocketUrl } from '../../api/client';
import { applyEvent, initialLive, RECONNECT_DELAYS_MS, type LiveState } from './job-events';

export type SocketMode = 'connecting' | 'live' | 'reconnecting' | 'polling' | 'ended';

/**
 * The job's events over /api/jobs/ws/{id}: reconnects (1 s, 2 s, 4 s) when the socket drops before the job's
 * final event, then gives up and reports `polling` (the page then polls GET /api/jobs/{id}).
 */
export function useJobSocket(apiUrl: string, jobId: string): { live: LiveState; mode: SocketMode } {
  const [live, dispatch] = useReducer(
    (s: LiveState, a: Record<string, unknown> | 'reset') => (a === 'reset' ? initialLive : applyEvent(s, a)),
    initialLive,
  );
  const [mode, setMode] = useState<SocketMode>('connecting');
  useEffect(() => {
    dispatch('reset');
    let attempt = 0;
    let ws: WebSocket | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let done = false;
    const open = () => {
      ws = new WebSocket(jobSocketUrl(apiUrl, jobId));
      ws.onopen = () => {
        attempt = 0;
        setMode('live');
      };
      ws.onmessage = (m) => {
        try {
          const ev = JSON.parse(String(m.data)) as Record<string, unknown>;
          dispatch(ev);
          if (ev.final === true) done = true;
        } catch {
          /* 'pong' and other non-JSON frames carry no event */
        }
      };
      ws.onclose = () => {
        if (done) return setMode('ended');
        if (attempt >= RECONNECT_DELAYS_MS.length) return setMode('polling');
        setMode('reconnecting');
        timer = setTimeout(open, RECONNECT_DELAYS_MS[attempt++]);
      };
    };
    open();
    return () => {
      done = true;
      clearTimeout(timer);
      ws?.close();
    };
  }, [apiUrl, jobId]);
  return { live, mode };
}
