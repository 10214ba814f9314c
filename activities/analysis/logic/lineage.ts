import type { LineageEdge } from '../../../schemas/analysis-lineage';
import {
  isName,
  isPunct,
  isWord,
  significant,
  SqlTokenError,
  tokenize,
  type Token,
} from '../../../platform/sql/tokenizer';

/**
 * Lineage from definitions: the objects a view or function names, found as identifier chains over the
 * project's SQL tokenizer (`platform/sql/tokenizer.ts`: strings, comments and quoted names handled), never by
 * substring search. Pure.
 */

export interface Home {
  catalog: string;
  schema: string;
}

export const fqnKey = (catalog: string, schema: string, name: string) => `${catalog}.${schema}.${name}`.toLowerCase();

interface NameChain {
  parts: string[];
  /** Followed by `(`: a function call. */
  isCall: boolean;
  /** Right after FROM or JOIN (unquoted keywords). */
  afterFromOrJoin: boolean;
}

/** Maximal `a.b.c` name chains of `sql` over the project's SQL tokenizer (strings and comments are not names). */
function nameChains(sql: string): NameChain[] {
  let tokens: Token[];
  try {
    tokens = tokenize(sql).filter(significant);
  } catch (err) {
    // A definition the tokenizer cannot read (an unterminated quote) names nothing we can trust.
    if (err instanceof SqlTokenError) return [];
    throw err;
  }
  const chains: NameChain[] = [];
  let k = 0;
  while (k < tokens.length) {
    if (!isName(tokens[k]) || isPunct(tokens[k - 1], '.')) {
      k++;
      continue;
    }
    const parts = [tokens[k].value];
    let m = k + 1;
    while (isPunct(tokens[m], '.') && isName(tokens[m + 1])) {
      parts.push(tokens[m + 1].value);
      m += 2;
    }
    const prev = tokens[k - 1];
    chains.push({
      parts,
      isCall: isPunct(tokens[m], '('),
      afterFromOrJoin: isWord(prev, 'FROM') || isWord(prev, 'JOIN'),
    });
    k = m;
  }
  return chains;
}

/**
 * Three-part keys of what `sql` names. A three-part name in another catalog always counts; shorter names
 * resolve in `home` and count only when `known` has them, and a one-part relation name only right after FROM
 * or JOIN (elsewhere it is a column far more often: a column `region` does not read a table `region`), the
 * rule the clone uses for left-out dependencies. `calls` picks function calls instead of relations.
 */
export function referencedObjects(sql: string, home: Home, known: ReadonlySet<string>, calls = false): string[] {
  const out = new Set<string>();
  for (const chain of nameChains(sql)) {
    if (chain.isCall !== calls) continue;
    const [a, b, c] = chain.parts;
    if (chain.parts.length >= 3) {
      const key = fqnKey(a, b, c);
      if (known.has(key) || a.toLowerCase() !== home.catalog.toLowerCase()) out.add(key);
      continue;
    }
    if (chain.parts.length === 1 && !calls && !chain.afterFromOrJoin) continue;
    const key = chain.parts.length === 2 ? fqnKey(home.catalog, a, b) : fqnKey(home.catalog, home.schema, a);
    if (known.has(key)) out.add(key);
  }
  return [...out].sort();
}

export interface Definitions {
  catalog: string;
  /** Tables and views of the catalog, as three-part keys. */
  relations: string[];
  views: { schema: string; name: string; definition: string }[];
  functions: { schema: string; name: string; body: string }[];
}

/** view and function edges: `source` is what is read, `target` the view or function reading it. */
export function definitionEdges(d: Definitions): LineageEdge[] {
  const known = new Set(d.relations.map((r) => r.toLowerCase()));
  const fnKnown = new Set(d.functions.map((f) => fqnKey(d.catalog, f.schema, f.name)));
  const edges: LineageEdge[] = [];
  for (const v of d.views) {
    const target = fqnKey(d.catalog, v.schema, v.name);
    for (const source of referencedObjects(v.definition, { catalog: d.catalog, schema: v.schema }, known))
      if (source !== target) edges.push({ source, target, kind: 'view', job_id: null, at: null });
  }
  for (const f of d.functions) {
    const target = fqnKey(d.catalog, f.schema, f.name);
    const home = { catalog: d.catalog, schema: f.schema };
    const reads = [
      ...referencedObjects(f.body, home, known),
      ...referencedObjects(f.body, home, fnKnown, true).filter((k) => fnKnown.has(k)),
    ];
    for (const source of reads)
      if (source !== target) edges.push({ source, target, kind: 'function', job_id: null, at: null });
  }
  return edges;
}

/** Every object reachable from `start` following edges forward (downstream) or backward (upstream). */
export function reachable(edges: LineageEdge[], start: Iterable<string>, direction: 'down' | 'up'): string[] {
  const next = new Map<string, string[]>();
  for (const e of edges) {
    const [from, to] = direction === 'down' ? [e.source, e.target] : [e.target, e.source];
    next.set(from, [...(next.get(from) ?? []), to]);
  }
  const starts = new Set([...start].map((s) => s.toLowerCase()));
  const seen = new Set<string>();
  const todo = [...starts];
  while (todo.length > 0) {
    for (const n of next.get(todo.pop()!) ?? []) {
      if (seen.has(n) || starts.has(n)) continue;
      seen.add(n);
      todo.push(n);
    }
  }
  return [...seen].sort();
}

/** The edges of the connected lineage of `start`: everything upstream and downstream of it. */
export function edgesAround(edges: LineageEdge[], start: string): LineageEdge[] {
  const self = start.toLowerCase();
  const up = new Set([self, ...reachable(edges, [self], 'up')]);
  const down = new Set([self, ...reachable(edges, [self], 'down')]);
  // An edge belongs to the object's lineage when it lies on a path into it or out of it.
  return edges.filter((e) => (up.has(e.source) && up.has(e.target)) || (down.has(e.source) && down.has(e.target)));
}

export type RiskLevel = 'none' | 'low' | 'medium' | 'high' | 'critical';

/**
 * Risk of changing an object, from how much depends on it: nothing → none; 1–2 dependents → low; 3–9 →
 * medium; 10–24 → high; 25 or more → critical. A queued or running job reading or writing it raises the level
 * by one step (the change would land under a job in flight).
 */
export function riskLevel(totalAffected: number, activeJobs: number): { level: RiskLevel; reason: string } {
  const levels: RiskLevel[] = ['none', 'low', 'medium', 'high', 'critical'];
  let i = totalAffected === 0 ? 0 : totalAffected <= 2 ? 1 : totalAffected <= 9 ? 2 : totalAffected <= 24 ? 3 : 4;
  let reason = `${totalAffected} downstream object(s) or job(s)`;
  if (activeJobs > 0 && i < 4) {
    i = Math.max(i, 1) + 1;
    reason += `, ${activeJobs} of them queued or running`;
  }
  return { level: levels[Math.min(i, 4)], reason };
}
