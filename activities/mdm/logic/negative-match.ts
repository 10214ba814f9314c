import { isName, isPunct, significant, SqlTokenError, tokenize, type Token } from '../../../platform/sql/tokenizer';
import { ident, lit } from '../../data-quality/logic/sql-text';
import { SCORE_LINK, type MatchTables } from './match-sql';
import { tableSql } from './standardise';

/**
 * Negative-match rules in a match run: which records of a cluster a rule keeps apart (SQL over the run's labels),
 * and the re-clustering of the components touching a rule (in the worker: a few components, not the data set).
 * Pure: no I/O.
 */

export interface RuleForRun {
  id: string;
  type: 'pair' | 'group' | 'pattern';
  /** Pair and group rules: each member's records as `system:record_id`. */
  members: string[][];
  /** Pattern rules: the predicate as checked by `checkPattern` (over `a.<attr>` and `b.<attr>`). */
  predicate: string | null;
}

const KEYWORDS = new Set(['AND', 'OR', 'NOT', 'IS', 'NULL', 'TRUE', 'FALSE', 'LIKE', 'ILIKE', 'IN', 'BETWEEN']);
const FUNCTIONS = new Set([
  'lower',
  'upper',
  'trim',
  'substr',
  'substring',
  'length',
  'coalesce',
  'abs',
  'left',
  'right',
  'jaro_winkler_similarity',
  'levenshtein',
  'datediff',
]);
const OPERATORS = new Set(['=', '<>', '!=', '<', '>', '<=', '>=', '(', ')', ',', '+', '-', '*', '/', '||', '.']);

/**
 * Checks a pattern predicate against the allow-list: `a.<attribute>` / `b.<attribute>` of the model, literals,
 * comparison and boolean operators and a few scalar functions. Answers the problem, or null when it is fine.
 */
export function checkPattern(predicate: string, attributes: string[]): string | null {
  let tokens: Token[];
  try {
    tokens = tokenize(predicate);
  } catch (e) {
    if (e instanceof SqlTokenError) return e.message;
    throw e;
  }
  if (tokens.some((t) => t.type === 'comment')) return 'must not contain comments';
  const sig = tokens.filter(significant);
  if (sig.length === 0) return 'must not be empty';
  if (sig.some((t) => isPunct(t, ';'))) return 'must be one predicate without ;';
  if (sig.some((t) => t.type === 'ident' && ['SELECT', 'WITH', 'FROM'].includes(t.value.toUpperCase())))
    return 'must not contain a subquery';
  let depth = 0;
  let refs = 0;
  for (let i = 0; i < sig.length; i++) {
    const t = sig[i];
    if (isPunct(t, '(')) depth++;
    if (isPunct(t, ')') && --depth < 0) return 'has an unbalanced )';
    if (t.type === 'string' || t.type === 'number') continue;
    if (t.type === 'punct') {
      if (!OPERATORS.has(t.text)) return `must not contain ${t.text}`;
      continue;
    }
    const word = t.value;
    if (t.type === 'ident' && (word === 'a' || word === 'b') && isPunct(sig[i + 1], '.')) {
      const attr = sig[i + 2];
      if (!isName(attr) || !attributes.includes(attr.value))
        return `${word}.${attr?.value ?? ''} is not an attribute of the model (${attributes.join(', ')})`;
      refs++;
      i += 2;
      continue;
    }
    if (t.type === 'ident' && KEYWORDS.has(word.toUpperCase())) continue;
    if (t.type === 'ident' && FUNCTIONS.has(word.toLowerCase()) && isPunct(sig[i + 1], '(')) continue;
    return `${t.text} is not allowed: use a.<attribute>, b.<attribute>, literals, operators and ${[...FUNCTIONS].join(', ')}`;
  }
  if (depth !== 0) return 'has an unbalanced (';
  if (refs === 0) return 'must compare attributes of a and b';
  return null;
}

/** The checked predicate as SQL over records aliased `l` (for a) and `r` (for b), names quoted. */
export function patternSql(predicate: string, l: string, r: string): string {
  const sig = tokenize(predicate).filter(significant);
  const out: string[] = [];
  for (let i = 0; i < sig.length; i++) {
    const t = sig[i];
    if (t.type === 'ident' && (t.value === 'a' || t.value === 'b') && isPunct(sig[i + 1], '.')) {
      out.push(`${t.value === 'a' ? l : r}.${ident(sig[i + 2].value)}`);
      i += 2;
    } else out.push(t.type === 'string' ? lit(t.value) : t.text);
  }
  return out.join(' ');
}

/** Pair and group members as rows (rule_id, member, uid), as an inline table named `alias`. */
function membersValues(rules: RuleForRun[], alias: string): string | null {
  const rows = rules.flatMap((rule) =>
    rule.type === 'pattern'
      ? []
      : rule.members.flatMap((m, i) => m.map((uid) => `(${lit(rule.id)}, ${i}, ${lit(uid)})`)),
  );
  return rows.length ? `(VALUES ${rows.join(', ')}) AS ${alias}(rule_id, member, uid)` : null;
}

/**
 * Pairs of records in one cluster of `labels` that a rule keeps apart: (rule_id, a, b, label). Pair and group
 * rules: records of different members; pattern rules: two records for which the predicate holds either way.
 */
export function violationsSql(t: MatchTables, labels: MatchTables['labels'], rules: RuleForRun[]): string | null {
  const parts: string[] = [];
  const [x, y] = [membersValues(rules, 'x'), membersValues(rules, 'y')];
  if (x && y)
    parts.push(
      `SELECT x.rule_id, x.uid AS a, y.uid AS b, lx.label FROM ${x} JOIN ${y} ` +
        `ON y.rule_id = x.rule_id AND y.member > x.member AND y.uid <> x.uid ` +
        `JOIN ${tableSql(labels)} lx ON lx.uid = x.uid JOIN ${tableSql(labels)} ly ON ly.uid = y.uid AND ly.label = lx.label`,
    );
  for (const rule of rules) {
    if (rule.type !== 'pattern' || !rule.predicate) continue;
    const either = `coalesce(${patternSql(rule.predicate, 'l', 'r')}, FALSE) OR coalesce(${patternSql(rule.predicate, 'r', 'l')}, FALSE)`;
    parts.push(
      `SELECT ${lit(rule.id)} AS rule_id, l.uid AS a, r.uid AS b, la.label FROM ${tableSql(labels)} la ` +
        `JOIN ${tableSql(labels)} lb ON lb.label = la.label AND la.uid < lb.uid ` +
        `JOIN ${tableSql(t.work)} l ON l.uid = la.uid JOIN ${tableSql(t.work)} r ON r.uid = lb.uid WHERE ${either}`,
    );
  }
  return parts.length ? parts.join(' UNION ALL ') : null;
}

/** The records and the linking edges (score ≥ 75) of the clusters with these labels. */
export function componentsSql(t: MatchTables, labels: MatchTables['labels'], touched: string[]) {
  const inList = touched.map(lit).join(', ');
  return {
    records: `SELECT uid, label FROM ${tableSql(labels)} WHERE label IN (${inList})`,
    edges:
      `SELECT p.uid_l, p.uid_r, p.score FROM ${tableSql(t.pairs)} p JOIN ${tableSql(labels)} x ON x.uid = p.uid_l ` +
      `WHERE p.score >= ${SCORE_LINK} AND x.label IN (${inList})`,
  };
}

/** The labels with the re-clustered records' new labels (every other record keeps its own; components stay). */
export function relabelSql(labels: MatchTables['labels'], changed: { uid: string; label: string }[]): string {
  if (!changed.length) return `SELECT uid, label, component, dirty, run_id FROM ${tableSql(labels)}`;
  const values = changed.map((c) => `(${lit(c.uid)}, ${lit(c.label)})`).join(', ');
  return (
    `SELECT l.uid, coalesce(n.label, l.label) AS label, l.component, l.dirty, l.run_id FROM ${tableSql(labels)} l ` +
    `LEFT JOIN (VALUES ${values}) AS n(uid, label) ON n.uid = l.uid`
  );
}

export interface Violation {
  rule_id: string;
  a: string;
  b: string;
}

export interface Edge {
  a: string;
  b: string;
  score: number;
}

/**
 * Re-clusters components touching a rule: edges from the strongest down (ties by the records' ids) join two
 * groups unless a rule keeps a record of one apart from a record of the other. Each rule counts once per
 * component in which it refused a merge. Answers every record's new label (its group's smallest uid).
 */
export function recluster(
  records: { uid: string; label: string }[],
  edges: Edge[],
  violations: Violation[],
): { labels: Map<string, string>; blocked: Record<string, number> } {
  const parent = new Map(records.map((r) => [r.uid, r.uid]));
  const label = new Map(records.map((r) => [r.uid, r.label]));
  const find = (x: string): string => {
    let root = x;
    while (parent.get(root) !== root) root = parent.get(root)!;
    while (parent.get(x) !== root) {
      const next = parent.get(x)!;
      parent.set(x, root);
      x = next;
    }
    return root;
  };
  const members = new Map(records.map((r) => [r.uid, [r.uid]]));
  const apart = new Map<string, { other: string; rule: string }[]>();
  for (const v of violations)
    for (const [x, y] of [
      [v.a, v.b],
      [v.b, v.a],
    ]) {
      if (!apart.has(x)) apart.set(x, []);
      apart.get(x)!.push({ other: y, rule: v.rule_id });
    }
  const blockedIn = new Map<string, Set<string>>();
  const sorted = [...edges]
    .filter((e) => parent.has(e.a) && parent.has(e.b))
    .sort((x, y) => y.score - x.score || (x.a < y.a ? -1 : x.a > y.a ? 1 : x.b < y.b ? -1 : x.b > y.b ? 1 : 0));
  for (const e of sorted) {
    const [ra, rb] = [find(e.a), find(e.b)];
    if (ra === rb) continue;
    const [small, big] = members.get(ra)!.length <= members.get(rb)!.length ? [ra, rb] : [rb, ra];
    const refusing = new Set<string>();
    for (const x of members.get(small)!)
      for (const { other, rule } of apart.get(x) ?? []) if (find(other) === big) refusing.add(rule);
    if (refusing.size) {
      const component = label.get(e.a)!;
      for (const rule of refusing) {
        if (!blockedIn.has(rule)) blockedIn.set(rule, new Set());
        blockedIn.get(rule)!.add(component);
      }
      continue;
    }
    parent.set(small, big);
    members.get(big)!.push(...members.get(small)!);
    members.delete(small);
  }
  const labels = new Map<string, string>();
  for (const group of members.values()) {
    const least = group.reduce((m, u) => (u < m ? u : m));
    for (const u of group) labels.set(u, least);
  }
  const blocked = Object.fromEntries([...blockedIn].map(([rule, comps]) => [rule, comps.size]));
  return { labels, blocked };
}
