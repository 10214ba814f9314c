/** What the job page knows from the WebSocket's JobEvents (pure; tested in job-events.test.ts). */
export interface LiveProgress {
  schemas: { completed: number; total: number };
  tables: { completed: number; failed: number; skipped: number; total: number };
  eta_seconds: number | null;
}

export interface LiveState {
  status: string | null;
  progress: LiveProgress | null;
  events: { seq?: number; ts: string; level: string; type: string; message: string }[];
  final: boolean;
}

export const initialLive: LiveState = { status: null, progress: null, events: [], final: false };

const MAX_EVENTS = 2000;

export function applyEvent(state: LiveState, raw: Record<string, unknown>): LiveState {
  const type = String(raw.type ?? 'log');
  // Only status and progress snapshots and the final event carry the JOB's status (a table event's `status` is the table's).
  const carriesJobStatus = type === 'status' || type === 'progress' || raw.final === true;
  const status = carriesJobStatus && typeof raw.status === 'string' ? raw.status : state.status;
  if (type === 'progress') {
    return { ...state, status, progress: raw as unknown as LiveProgress };
  }
  // A reconnect replays the run log: events already seen (same seq) are skipped.
  const seq = typeof raw.seq === 'number' ? raw.seq : undefined;
  const seen = seq !== undefined && state.events.some((e) => e.seq === seq);
  const events = seen
    ? state.events
    : [
        ...state.events,
        {
          seq,
          ts: String(raw.ts ?? ''),
          level: String(raw.level ?? 'info'),
          type,
          message: String(raw.message ?? ''),
        },
      ].slice(-MAX_EVENTS);
  return { ...state, status, events, final: state.final || raw.final === true };
}

/** Delay before reconnect attempt `n` (0-based); after the last one the page falls back to polling. */
export const RECONNECT_DELAYS_MS = [1_000, 2_000, 4_000] as const;

export function formatEta(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return 'not known yet';
  if (seconds < 60) return `${Math.round(seconds)} s`;
  return `${Math.floor(seconds / 60)} min ${Math.round(seconds % 60)} s`;
}
