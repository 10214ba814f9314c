import { identifierChains, tokenize } from './sql-identifiers';
import { viewKey } from './view-order';

/**
 * Which views of a schema read objects the clone's filters leave out, decided from the source's listings
 * before any SQL runs. Without include_dependencies such a view is skipped (and so is every view reading a
 * skipped view); with it, the left-out objects are pulled into the clone instead. Pure.
 */

export interface CatalogObject {
  schema: string;
  name: string;
  kind: 'table' | 'view';
  /** Views only: the SELECT text. */
  definition?: string;
  /** The option that leaves this object out of the clone (`exclude_tables_regex`, …), or null when cloned. */
  leftOut: string | null;
}

export interface SkippedView {
  key: string;
  schema: string;
  name: string;
  /** Why, e.g. `it reads sales.orders, which this clone leaves out (exclude_tables_regex)`. */
  cause: string;
  message: string;
}

export interface PulledIn {
  key: string;
  schema: string;
  name: string;
  kind: 'table' | 'view';
  /** The option that had left it out. */
  reason: string;
  /** `schema.name` of the first view found reading it. */
  readBy: string;
}

export interface DependencyPlan {
  skipped: SkippedView[];
  /** Dependencies first. */
  pulledIn: PulledIn[];
}

export interface DependencyInput {
  /** The source catalog: references to other catalogs are never missing dependencies. */
  catalog: string;
  /** Every source object the roots may reach (tables and views of the schemas they name). */
  objects: CatalogObject[];
  /** Keys (`schema.name`) of the views the clone creates in this schema. */
  roots: string[];
  includeDependencies: boolean;
}

export const NO_DEPENDENCIES: DependencyPlan = { skipped: [], pulledIn: [] };

const label = (o: CatalogObject) => `${o.schema}.${o.name}`;

/**
 * Keys of the known objects a view reads. A one-part name counts only right after FROM or JOIN: elsewhere it
 * is a column far more often (a column `region` must not make a view depend on a left-out table `region`).
 */
function relationDependencies(view: CatalogObject, catalog: string, known: ReadonlySet<string>): string[] {
  const sql = view.definition ?? '';
  const tokens = tokenize(sql);
  const before = new Map(tokens.map((t, i) => [t.start, tokens[i - 1]]));
  const deps = new Set<string>();
  for (const chain of identifierChains(sql)) {
    if (chain.isCall) continue;
    const [a, b, c] = chain.parts;
    if (chain.parts.length >= 3 && a.toLowerCase() !== catalog.toLowerCase()) continue;
    let key: string;
    if (chain.parts.length >= 3) key = viewKey(b, c);
    else if (chain.parts.length === 2) key = viewKey(a, b);
    else {
      const prev = before.get(chain.spans[0].start);
      if (prev?.kind !== 'ident' || prev.quoted || !/^(from|join)$/i.test(prev.value)) continue;
      key = viewKey(view.schema, a);
    }
    if (known.has(key) && key !== viewKey(view.schema, view.name)) deps.add(key);
  }
  return [...deps];
}

export function planViewDependencies(input: DependencyInput): DependencyPlan {
  const byKey = new Map(input.objects.map((o) => [viewKey(o.schema, o.name), o]));
  const known = new Set(byKey.keys());
  const deps = new Map<string, string[]>();
  const depsOf = (key: string): string[] => {
    let d = deps.get(key);
    if (!d) {
      const o = byKey.get(key);
      d = o?.kind === 'view' ? relationDependencies(o, input.catalog, known).sort() : [];
      deps.set(key, d);
    }
    return d;
  };
  const roots = input.roots.filter((k) => byKey.get(k)?.kind === 'view');
  return input.includeDependencies
    ? { skipped: [], pulledIn: pullIn(roots, byKey, depsOf) }
    : skip(roots, byKey, depsOf);
}

function skip(roots: string[], byKey: Map<string, CatalogObject>, depsOf: (k: string) => string[]): DependencyPlan {
  const causes = new Map<string, string | null>();
  const causeOf = (key: string, visiting: Set<string>): string | null => {
    if (causes.has(key)) return causes.get(key)!;
    // A cycle is not a missing dependency: view ordering reports it.
    if (visiting.has(key)) return null;
    visiting.add(key);
    const ds = depsOf(key).map((d) => byKey.get(d)!);
    const direct = ds.find((d) => d.leftOut !== null);
    let cause: string | null = direct
      ? `it reads ${label(direct)}, which this clone leaves out (${direct.leftOut})`
      : null;
    for (const d of ds) {
      if (cause !== null) break;
      const inner = d.kind === 'view' ? causeOf(viewKey(d.schema, d.name), visiting) : null;
      if (inner !== null) cause = `it reads ${label(d)}, a view skipped because ${inner}`;
    }
    visiting.delete(key);
    causes.set(key, cause);
    return cause;
  };
  const skipped: SkippedView[] = [];
  for (const key of [...roots].sort()) {
    const cause = causeOf(key, new Set());
    if (cause === null) continue;
    const v = byKey.get(key)!;
    skipped.push({ key, schema: v.schema, name: v.name, cause, message: `view ${label(v)} skipped: ${cause}` });
  }
  return { skipped, pulledIn: [] };
}

function pullIn(roots: string[], byKey: Map<string, CatalogObject>, depsOf: (k: string) => string[]): PulledIn[] {
  const pulled: PulledIn[] = [];
  const visited = new Set<string>();
  const visit = (key: string) => {
    if (visited.has(key)) return;
    visited.add(key);
    const reader = byKey.get(key)!;
    for (const d of depsOf(key)) {
      visit(d);
      const dep = byKey.get(d)!;
      if (dep.leftOut !== null && !pulled.some((p) => p.key === d))
        pulled.push({
          key: d,
          schema: dep.schema,
          name: dep.name,
          kind: dep.kind,
          reason: dep.leftOut,
          readBy: label(reader),
        });
    }
  };
  for (const key of [...roots].sort()) visit(key);
  return pulled;
}

/** The job warnings for one schema's plan: one per skipped view, one listing what was pulled in. */
export function dependencyWarnings(plan: DependencyPlan, schema: string): string[] {
  const out = plan.skipped.map((s) => s.message);
  if (plan.pulledIn.length > 0)
    out.push(
      `include_dependencies: views of schema ${schema} read objects the filters leave out; pulled into the clone: ` +
        plan.pulledIn.map((p) => `${p.kind} ${p.schema}.${p.name} (${p.reason}, read by ${p.readBy})`).join(', '),
    );
  return out;
}

/** Lower-case names of the tables of `schema` the plan pulls in (copied by the schema's own table steps). */
export function pulledTablesOf(plan: DependencyPlan, schema: string): Set<string> {
  const same = (s: string) => s.toLowerCase() === schema.toLowerCase();
  return new Set(plan.pulledIn.filter((p) => p.kind === 'table' && same(p.schema)).map((p) => p.name.toLowerCase()));
}
