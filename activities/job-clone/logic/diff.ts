import type { Json } from './settings';

/** One difference between two jobs' settings; `path` is a JSON Pointer whose keyed array items use their key. */
export interface JobDiff {
  path: string;
  kind: 'added' | 'removed' | 'changed';
  a: unknown;
  b: unknown;
}

/** Arrays whose items are matched by a key, so reordering them is not a difference. */
const KEYED: Record<string, string> = {
  tasks: 'task_key',
  job_clusters: 'job_cluster_key',
  environments: 'environment_key',
  parameters: 'name',
  depends_on: 'task_key',
};

const esc = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');
const isObj = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);

function keyedItems(arr: unknown[], key: string): Map<string, unknown> | null {
  const m = new Map<string, unknown>();
  for (const item of arr) {
    if (!isObj(item) || typeof item[key] !== 'string' || m.has(item[key] as string)) return null;
    m.set(item[key] as string, item);
  }
  return m;
}

function walk(a: unknown, b: unknown, path: string, field: string, out: JobDiff[]): void {
  if (a === undefined && b === undefined) return;
  if (a === undefined) return void out.push({ path: path || '/', kind: 'added', a, b });
  if (b === undefined) return void out.push({ path: path || '/', kind: 'removed', a, b });
  if (Array.isArray(a) && Array.isArray(b)) {
    const key = KEYED[field];
    const ma = key ? keyedItems(a, key) : null;
    const mb = key ? keyedItems(b, key) : null;
    if (ma && mb) {
      for (const k of [...new Set([...ma.keys(), ...mb.keys()])].sort())
        walk(ma.get(k), mb.get(k), `${path}/${esc(k)}`, '', out);
      return;
    }
    for (let i = 0; i < Math.max(a.length, b.length); i++) walk(a[i], b[i], `${path}/${i}`, '', out);
    return;
  }
  if (isObj(a) && isObj(b)) {
    for (const k of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort())
      walk(a[k], b[k], `${path}/${esc(k)}`, k, out);
    return;
  }
  if (JSON.stringify(a) !== JSON.stringify(b)) out.push({ path: path || '/', kind: 'changed', a, b });
}

/** The differences between two jobs' settings, tasks matched by task_key (and clusters, environments by key). */
export function diffSettings(a: Json, b: Json): JobDiff[] {
  const out: JobDiff[] = [];
  walk(a, b, '', '', out);
  return out;
}
