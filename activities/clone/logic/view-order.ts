import { objectReferences } from './sql-identifiers';

/**
 * Orders views so that a view is created after the views it reads (Kahn's algorithm over the references
 * found by parsing each definition). Views on a cycle can never be created; they are reported, not retried.
 */
export interface ViewNode {
  schema: string;
  name: string;
  definition: string;
}

export interface ViewOrder {
  /** `schema.name` keys, dependencies first. */
  order: string[];
  /** Each entry lists the views of one cycle (or depending on one), sorted. */
  cycles: string[][];
}

export const viewKey = (schema: string, name: string) => `${schema}.${name}`.toLowerCase();

/** Keys of the views in `views` that `view` reads; `catalog` is the source catalog the definitions name. */
export function viewDependencies(view: ViewNode, catalog: string, known: ReadonlySet<string>): string[] {
  const deps = new Set<string>();
  for (const ref of objectReferences(view.definition)) {
    if (ref.isCall) continue;
    if (ref.catalog !== null && ref.catalog.toLowerCase() !== catalog.toLowerCase()) continue;
    const key = viewKey(ref.schema ?? view.schema, ref.name);
    if (known.has(key) && key !== viewKey(view.schema, view.name)) deps.add(key);
  }
  return [...deps];
}

export function orderViews(views: ViewNode[], catalog: string): ViewOrder {
  const keys = new Set(views.map((v) => viewKey(v.schema, v.name)));
  const deps = new Map<string, string[]>();
  const dependents = new Map<string, string[]>();
  for (const v of views) {
    const key = viewKey(v.schema, v.name);
    const d = viewDependencies(v, catalog, keys);
    deps.set(key, d);
    for (const dep of d) dependents.set(dep, [...(dependents.get(dep) ?? []), key]);
  }
  const remaining = new Map([...deps].map(([k, d]) => [k, d.length]));
  // Deterministic: ready views are taken in name order.
  const ready = [...remaining]
    .filter(([, n]) => n === 0)
    .map(([k]) => k)
    .sort();
  const order: string[] = [];
  while (ready.length > 0) {
    const key = ready.shift()!;
    order.push(key);
    for (const next of dependents.get(key) ?? []) {
      const n = remaining.get(next)! - 1;
      remaining.set(next, n);
      if (n === 0) {
        ready.push(next);
        ready.sort();
      }
    }
  }
  const stuck = [...remaining].filter(([k, n]) => n > 0 && !order.includes(k)).map(([k]) => k);
  return { order, cycles: groupCycles(stuck, deps) };
}

/** Groups the unorderable views into connected groups so the report names each cycle separately. */
function groupCycles(stuck: string[], deps: Map<string, string[]>): string[][] {
  const stuckSet = new Set(stuck);
  const seen = new Set<string>();
  const groups: string[][] = [];
  for (const start of stuck.sort()) {
    if (seen.has(start)) continue;
    const group: string[] = [];
    const todo = [start];
    while (todo.length > 0) {
      const k = todo.pop()!;
      if (seen.has(k)) continue;
      seen.add(k);
      group.push(k);
      for (const d of deps.get(k) ?? []) if (stuckSet.has(d)) todo.push(d);
      for (const [other, ds] of deps) if (stuckSet.has(other) && ds.includes(k)) todo.push(other);
    }
    groups.push(group.sort());
  }
  return groups;
}
