import type { Progress } from './clone-bench-env';

/** JSON over the API, failing with the status and body when the answer is not 2xx. */
export async function api<T>(base: string, path: string, init?: { method: string; body?: unknown }): Promise<T> {
  const res = await fetch(`${base}${path}`, {
    method: init?.method ?? 'GET',
    headers: init?.body ? { 'content-type': 'application/json' } : {},
    body: init?.body ? JSON.stringify(init.body) : undefined,
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${init?.method ?? 'GET'} ${path}: ${res.status} ${text}`);
  return JSON.parse(text) as T;
}

interface JobRecord {
  status: string;
  completed_at?: string | null;
}

const FINAL = new Set(['completed', 'failed', 'cancelled', 'aborted']);

/** Polls until `fn` returns a value, or fails after `timeoutMs` naming what it waited for and the last value. */
export async function waitFor<T>(what: string, fn: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v !== undefined) return v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what} (last: ${last})`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Queues a clone of `source` through the API; returns its job id. */
export async function submitClone(base: string, body: Record<string, unknown>): Promise<string> {
  const accepted = await api<{ job_id: string }>(base, '/api/clone', { method: 'POST', body });
  return accepted.job_id;
}

/** Waits until the job is final and returns its status. */
export function untilFinal(base: string, jobId: string, timeoutMs: number): Promise<string> {
  return waitFor(
    `job ${jobId} to end`,
    async () => {
      const job = await api<JobRecord>(base, `/api/clone/${jobId}`);
      return FINAL.has(job.status) && job.completed_at ? job.status : undefined;
    },
    timeoutMs,
  );
}

/** The two jobs kept in progress during the busy phase, and how often both were seen running. */
export interface BusyClones {
  /** The deep clone running now (its record is the one GET /api/clone/{id} reads while busy). */
  deepId(): string;
  /** Starts counting samples in which both clones are running; `stop` returns the share of such samples. */
  sample(): { stop(): { both: number; samples: number } };
  started(): { deep: number; throttled: number };
  stop(): Promise<void>;
}

/**
 * Keeps one throttled clone (max_rps 1: one warehouse statement per second) and one deep clone in progress:
 * when either ends, the next one of its kind is queued at once. Job states are read from the API like any
 * client would, every 250 ms.
 */
export async function keepClonesBusy(base: string, source: string, progress: Progress): Promise<BusyClones> {
  const n = { deep: 0, throttled: 0 };
  const submit = (kind: 'deep' | 'throttled') =>
    submitClone(base, {
      source_catalog: source,
      destination_catalog: `${source}_${kind}_${++n[kind]}`,
      clone_type: 'DEEP',
      ...(kind === 'throttled' ? { max_rps: 1 } : {}),
    });
  const ids = { throttled: await submit('throttled'), deep: await submit('deep') };
  const status = async (id: string) => (await api<JobRecord>(base, `/api/clone/${id}`)).status;
  await waitFor(
    'the throttled and the deep clone to be running',
    async () => ((await status(ids.throttled)) === 'running' && (await status(ids.deep)) === 'running') || undefined,
    60_000,
  );
  progress(`busy: throttled clone ${ids.throttled} and deep clone ${ids.deep} running`);

  let stopping = false;
  const sampling: { counter: { both: number; samples: number } | null } = { counter: null };
  const loop = (async () => {
    while (!stopping) {
      const [t, d] = await Promise.all([status(ids.throttled), status(ids.deep)]);
      const counter = sampling.counter;
      if (counter) {
        counter.samples++;
        if (t === 'running' && d === 'running') counter.both++;
      }
      for (const [kind, s] of [
        ['throttled', t],
        ['deep', d],
      ] as const) {
        if (!FINAL.has(s) || stopping) continue;
        progress(`busy: ${kind} clone ${ids[kind]} ended ${s}; queueing the next`);
        ids[kind] = await submit(kind);
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  })();

  return {
    deepId: () => ids.deep,
    sample() {
      const c = (sampling.counter = { both: 0, samples: 0 });
      return {
        stop() {
          sampling.counter = null;
          return c;
        },
      };
    },
    started: () => ({ ...n }),
    async stop() {
      stopping = true;
      await loop;
      for (const id of [ids.throttled, ids.deep]) {
        if (FINAL.has(await status(id))) continue;
        await api(base, `/api/clone/${id}/cancel`, { method: 'POST' });
        await untilFinal(base, id, 90_000);
      }
    },
  };
}
