/** Jobs API 2.2 settings as a clone, a backup or a restore needs them. Pure. */

export type Json = Record<string, unknown>;

/** Arrays of `jobs/get` that come in pages of 100 (merged by following next_page_token). */
export const PAGED_ARRAYS = ['tasks', 'job_clusters', 'environments', 'parameters'] as const;

/** Appends one `jobs/get` page's paged arrays to the job read so far. */
export function mergeJobPage(job: Json, page: Json): Json {
  const settings = { ...((job.settings as Json | undefined) ?? {}) };
  const next = (page.settings as Json | undefined) ?? {};
  for (const k of PAGED_ARRAYS)
    if (Array.isArray(next[k]))
      settings[k] = [...((settings[k] as unknown[] | undefined) ?? []), ...(next[k] as unknown[])];
  return { ...job, settings };
}

/** A job's settings without what only the service sets (bundle deployment; the clone is editable). */
export function writableSettings(settings: Json): Json {
  const out: Json = { ...settings };
  delete out.deployment;
  if (out.edit_mode) out.edit_mode = 'EDITABLE';
  return out;
}

/** Schedule, file-arrival / periodic trigger and continuous mode paused. */
export function paused(settings: Json): Json {
  const out: Json = { ...settings };
  for (const k of ['schedule', 'trigger', 'continuous'])
    if (out[k] && typeof out[k] === 'object') out[k] = { ...(out[k] as Json), pause_status: 'PAUSED' };
  return out;
}

/** The settings of a clone: writable, renamed (default `<name>_clone`), `overrides` over the top-level keys, paused. */
export function cloneSettings(settings: Json, opts: { newName?: string; overrides?: Json }): Json {
  const name = opts.newName ?? `${String(settings.name ?? 'job')}_clone`;
  return paused({ ...writableSettings(settings), ...(opts.overrides ?? {}), name });
}

const CLUSTER_KEYS = new Set(['existing_cluster_id', 'cluster_id']);
const WAREHOUSE_KEYS = new Set(['warehouse_id']);

/**
 * Cluster and warehouse ids rewritten through `remap` anywhere in the settings (tasks' existing_cluster_id, sql and
 * dbt tasks' warehouse_id, …); the ids left as they were are listed so the caller can warn about them.
 */
export function remapIds(
  settings: Json,
  remap: { clusters?: Record<string, string>; warehouses?: Record<string, string> },
): { settings: Json; unmapped: { clusters: string[]; warehouses: string[] } } {
  const left = { clusters: new Set<string>(), warehouses: new Set<string>() };
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (!v || typeof v !== 'object') return v;
    const out: Json = {};
    for (const [k, x] of Object.entries(v as Json)) {
      if (typeof x === 'string' && CLUSTER_KEYS.has(k)) {
        out[k] = remap.clusters?.[x] ?? x;
        if (!remap.clusters?.[x]) left.clusters.add(x);
      } else if (typeof x === 'string' && WAREHOUSE_KEYS.has(k)) {
        out[k] = remap.warehouses?.[x] ?? x;
        if (!remap.warehouses?.[x]) left.warehouses.add(x);
      } else out[k] = walk(x);
    }
    return out;
  };
  return {
    settings: walk(settings) as Json,
    unmapped: { clusters: [...left.clusters].sort(), warehouses: [...left.warehouses].sort() },
  };
}
