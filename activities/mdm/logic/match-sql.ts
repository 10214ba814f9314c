import type { ComparisonLevel, MdmModel } from '../../../schemas/mdm';
import { ident, lit } from '../../data-quality/logic/sql-text';
import { levelWeight, type FsParams } from './em';
import { compareExpr, recordsTable, tableSql, type RecordsTable } from './standardise';

/**
 * The SQL of a match run (Databricks SQL; the local lakehouse runs the same text on DuckDB). Every heavy step is
 * one statement over the entity type's tables in `<mdm.catalog>.mdm`; only pattern counts reach the worker.
 */

export interface MatchTables {
  records: RecordsTable;
  /** Live records of this run with a `uid` (system:record_id) and their survivorship keys. */
  work: RecordsTable;
  /** Candidate pairs with their comparison levels. */
  candidates: RecordsTable;
  /** Candidate pairs with their scores. */
  pairs: RecordsTable;
  /** Cluster labels while they converge (two tables, written in turn). */
  labelsB: RecordsTable;
  /** Each live record's golden record id in this run, before it is published. */
  assign: RecordsTable;
  labels: RecordsTable;
  /** Incremental runs: the previous run's work table, and its scored pairs between unchanged records. */
  workPrev: RecordsTable;
  pairsKept: RecordsTable;
  members: RecordsTable;
  golden: RecordsTable;
}

export function matchTables(catalog: string, entityType: string): MatchTables {
  const t = (name: string) => ({ catalog, schema: 'mdm', name: `${name}_${entityType}` });
  return {
    records: recordsTable(catalog, entityType),
    work: t('match_work'),
    candidates: t('match_candidates'),
    pairs: t('match_pairs'),
    labelsB: t('match_labels_b'),
    assign: t('match_assign'),
    labels: t('match_labels'),
    workPrev: t('match_work_prev'),
    pairsKept: t('match_pairs_kept'),
    members: t('golden_members'),
    golden: t('golden_records'),
  };
}

export const attributesOf = (model: MdmModel) => Object.keys(model.attributes);
/** Levels of an attribute: 0 disagree, then each comparison from the loosest, and exact on top. */
export const levelCount = (model: MdmModel, attr: string) => model.attributes[attr].comparisons.length + 2;
export const gammaColumn = (attr: string) => `g_${attr}`;
/** The work-table column an attribute is compared on: names without accents (`<attr>__cmp`), others as stored. */
export const compareColumn = (model: MdmModel, attr: string) =>
  ident(model.attributes[attr].kind === 'name' ? `${attr}__cmp` : attr);

function condition(level: ComparisonLevel, l: string, r: string): string {
  switch (level.type) {
    case 'exact':
      return `${l} = ${r}`;
    case 'jaro_winkler':
      return `jaro_winkler_similarity(${l}, ${r}) >= ${level.threshold}`;
    case 'levenshtein':
      return `levenshtein(${l}, ${r}) <= ${level.max}`;
    case 'date_distance':
      return `abs(datediff(CAST(${l} AS DATE), CAST(${r} AS DATE))) <= ${level.days}`;
  }
}

/** The comparison level of an attribute for the pair l, r: -1 missing, 0 disagree … top exact. */
export function gammaExpr(model: MdmModel, attr: string, l = 'l', r = 'r'): string {
  const a = `${l}.${compareColumn(model, attr)}`;
  const b = `${r}.${compareColumn(model, attr)}`;
  const levels = model.attributes[attr].comparisons;
  const top = levels.length + 1;
  const whens = [`WHEN ${a} IS NULL OR ${b} IS NULL THEN -1`, `WHEN ${a} = ${b} THEN ${top}`];
  levels.forEach((c, i) => whens.push(`WHEN ${condition(c, a, b)} THEN ${top - 1 - i}`));
  return `CASE ${whens.join(' ')} ELSE 0 END`;
}

const METRICS = {
  jaro_winkler: (l: string, r: string) => `jaro_winkler_similarity(${l}, ${r})`,
  levenshtein: (l: string, r: string) => `levenshtein(${l}, ${r})`,
  date_distance: (l: string, r: string) => `abs(datediff(CAST(${l} AS DATE), CAST(${r} AS DATE)))`,
};
type MetricType = keyof typeof METRICS;
const metricColumn = (attr: string, type: string) => ident(`m_${type}_${attr}`);

/**
 * Each attribute's null test, equality and comparison functions, each computed once per pair (a `CASE` over the
 * levels would call the function again for every level a pair fails), for `gammaFromMetrics` over them.
 */
export function metricsSelect(model: MdmModel, l = 'l', r = 'r'): string {
  return attributesOf(model)
    .flatMap((attr) => {
      const [a, b] = [`${l}.${compareColumn(model, attr)}`, `${r}.${compareColumn(model, attr)}`];
      const types = [...new Set(model.attributes[attr].comparisons.map((c) => c.type))].filter(
        (x): x is MetricType => x !== 'exact',
      );
      return [
        `(${a} IS NULL OR ${b} IS NULL) AS ${ident(`nul_${attr}`)}`,
        `coalesce(${a} = ${b}, FALSE) AS ${ident(`eq_${attr}`)}`,
        ...types.map((x) => `CASE WHEN ${a} = ${b} THEN NULL ELSE ${METRICS[x](a, b)} END AS ${metricColumn(attr, x)}`),
      ];
    })
    .join(', ');
}

/** The comparison level of an attribute from the columns of `metricsSelect` (the same levels as gammaExpr). */
export function gammaFromMetrics(model: MdmModel, attr: string): string {
  const levels = model.attributes[attr].comparisons;
  const top = levels.length + 1;
  const whens = [`WHEN ${ident(`nul_${attr}`)} THEN -1`, `WHEN ${ident(`eq_${attr}`)} THEN ${top}`];
  levels.forEach((c, i) => {
    const cond =
      c.type === 'exact'
        ? ident(`eq_${attr}`)
        : c.type === 'jaro_winkler'
          ? `${metricColumn(attr, c.type)} >= ${c.threshold}`
          : c.type === 'levenshtein'
            ? `${metricColumn(attr, c.type)} <= ${c.max}`
            : `${metricColumn(attr, c.type)} <= ${c.days}`;
    whens.push(`WHEN ${cond} THEN ${top - 1 - i}`);
  });
  return `CASE ${whens.join(' ')} ELSE 0 END`;
}

/** The attributes a blocking rule's keys read. */
export function blockingAttributes(model: MdmModel, rule: number): string[] {
  return model.blocking_rules[rule].keys.map((k) => (typeof k === 'string' ? k : k.attribute));
}

/** A blocking rule's key parts of record `t`. */
function blockingKeys(model: MdmModel, rule: number, t: string): string[] {
  return model.blocking_rules[rule].keys.map((k) =>
    typeof k === 'string'
      ? `${t}.${compareColumn(model, k)}`
      : `substr(${t}.${compareColumn(model, k.attribute)}, 1, ${k.prefix})`,
  );
}

/** Rule `i` puts l and r in one block: every key part equal (so neither is null). */
export function blockedBy(model: MdmModel, i: number, l = 'l', r = 'r'): string {
  const a = blockingKeys(model, i, l);
  const b = blockingKeys(model, i, r);
  return a.map((x, k) => `${x} = ${b[k]}`).join(' AND ');
}

/**
 * The records of this run: live (not deleted) records with `uid`, the system's position in `source_priority`
 * and how many attributes they fill (for most_complete).
 */
export function workSql(model: MdmModel, t: MatchTables, previous?: RecordsTable): string {
  const attrs = attributesOf(model);
  const prio = model.source_priority.length
    ? `CASE ${model.source_priority.map((s, i) => `WHEN system = ${lit(s)} THEN ${i}`).join(' ')} ELSE ${model.source_priority.length} END`
    : '0';
  const filled = attrs.map((a) => `CASE WHEN ${ident(a)} IS NULL THEN 0 ELSE 1 END`).join(' + ');
  const compared = attrs
    .filter((a) => model.attributes[a].kind === 'name')
    .map((a) => `, ${compareExpr('name', ident(a))} AS ${compareColumn(model, a)}`)
    .join('');
  const base =
    `SELECT concat(system, ':', record_id) AS uid, system, record_id, trust, ${prio} AS priority, source_updated_at, ` +
    `${attrs.map(ident).join(', ')}${compared}, ${filled} AS filled FROM ${tableSql(t.records)} WHERE NOT deleted`;
  // `c`: the record is new or changed since the previous run's work table (every record in a full run).
  if (!previous) return `SELECT w.*, TRUE AS c FROM (${base}) w`;
  const same = ['trust', 'priority', 'source_updated_at', ...attrs]
    .map((a) => `w.${ident(a)} IS NOT DISTINCT FROM p.${ident(a)}`)
    .join(' AND ');
  return `SELECT w.*, (p.uid IS NULL OR NOT (${same})) AS c FROM (${base}) w LEFT JOIN ${tableSql(previous)} p ON p.uid = w.uid`;
}

/** Candidate pairs each rule would add, from block sizes alone (before any pair is built). */
export function blockingCountsSql(model: MdmModel, t: MatchTables, from = tableSql(t.work)): string {
  return model.blocking_rules
    .map((rule, i) => {
      const keys = blockingKeys(model, i, 'w');
      const notNull = keys.map((k) => `${k} IS NOT NULL`).join(' AND ');
      return (
        `SELECT ${lit(rule.name)} AS rule, ${i} AS position, coalesce(sum(n * (n - 1) / 2), 0) AS pairs FROM ` +
        `(SELECT count(*) AS n FROM ${from} w WHERE ${notNull} GROUP BY ${keys.join(', ')}) b`
      );
    })
    .join(' UNION ALL ');
}

/**
 * Every candidate pair once with its comparison levels: rule i keeps the pairs no earlier rule blocked together
 * (rules OR-ed, no pair scored twice), l.uid < r.uid. Incremental: only the pairs holding a new or changed record.
 */
export function pairsSql(model: MdmModel, t: MatchTables, runId: string, incremental = false): string {
  const attrs = attributesOf(model);
  // Which rules block the pair (each rule's own pairs train its EM without being built again).
  const memberships = model.blocking_rules
    .map((_, j) => `coalesce(${blockedBy(model, j)}, FALSE) AS ${ident(membershipColumn(j))}`)
    .join(', ');
  // Each comparison function once per pair (inner), the levels from them (outer).
  const gammas = attrs.map((a) => `${gammaFromMetrics(model, a)} AS ${ident(gammaColumn(a))}`).join(', ');
  const blk = model.blocking_rules.map((_, j) => ident(membershipColumn(j))).join(', ');
  const parts = model.blocking_rules.map((rule, i) => {
    const earlier = model.blocking_rules
      .slice(0, i)
      .map((_, j) => ` AND NOT coalesce(${blockedBy(model, j)}, FALSE)`)
      .join('');
    return (
      `SELECT uid_l, uid_r, rule, ${gammas}, ${blk} FROM (SELECT l.uid AS uid_l, r.uid AS uid_r, ${lit(rule.name)} AS rule, ` +
      `${metricsSelect(model)}, ${memberships} FROM ${tableSql(t.work)} l ` +
      `JOIN ${tableSql(t.work)} r ON ${blockedBy(model, i)} AND l.uid < r.uid${earlier}` +
      (incremental ? ' WHERE l.c OR r.c' : '') +
      ') m'
    );
  });
  return `SELECT *, ${lit(runId)} AS run_id FROM (${parts.join(' UNION ALL ')}) p`;
}

/** The candidate-pair column saying whether blocking rule `j` blocks the pair. */
export const membershipColumn = (j: number) => `blk_${j}`;

/**
 * Agreement-pattern counts per blocking rule, for training: each rule's own pairs, not only those no earlier rule
 * produced (the dedupe of the candidate pairs would hide, say, equal birth dates from every rule after `dob`).
 * Read from the candidate pairs (every pair of every rule is one of them, its memberships say which rules block
 * it), so no comparison is computed twice.
 */
export function patternCountsSql(model: MdmModel, t: MatchTables): string {
  const cols = attributesOf(model)
    .map((a) => ident(gammaColumn(a)))
    .join(', ');
  return model.blocking_rules
    .map(
      (rule, i) =>
        `SELECT ${lit(rule.name)} AS rule, ${cols}, count(*) AS n FROM ${tableSql(t.candidates)} ` +
        `WHERE ${ident(membershipColumn(i))} GROUP BY ${cols}`,
    )
    .join(' UNION ALL ');
}

/** Pattern counts of all pairs among a seeded sample of `size` records: nearly all non-matches, for u. */
export function samplePatternsSql(model: MdmModel, t: MatchTables, seed: number, size: number): string {
  const sample = `(SELECT * FROM ${tableSql(t.work)} ORDER BY md5(concat(uid, ${lit(String(seed))})) LIMIT ${size})`;
  const attrs = attributesOf(model);
  const g = attrs.map((a) => `${gammaFromMetrics(model, a)} AS ${ident(gammaColumn(a))}`);
  const cols = attrs.map((a) => ident(gammaColumn(a)));
  return (
    `SELECT ${cols.join(', ')}, count(*) AS n FROM (SELECT ${g.join(', ')} FROM (SELECT ${metricsSelect(model)} ` +
    `FROM ${sample} l JOIN ${sample} r ON l.uid < r.uid) m) s GROUP BY ${cols.join(', ')}`
  );
}

/** Scores are 0–100: the match probability × 100, one decimal. */
export const SCORE_MERGE = 95;
export const SCORE_LINK = 75;

/**
 * The pairs with their score: 100 when a deterministic rule holds; else 100 × P(match) from the trained weights;
 * a hard identifier present on both sides and disagreeing caps the score below the linking threshold.
 */
export function scoredPairsSql(
  model: MdmModel,
  t: MatchTables,
  params: FsParams,
  mustLinks: [string, string][] = [],
  runId = '',
): string {
  const attrs = attributesOf(model);
  const prior = Math.log2(params.lambda / (1 - params.lambda));
  const weights = attrs.map((a, i) => {
    const cases = Array.from({ length: levelCount(model, a) }, (_, l) => `WHEN ${l} THEN ${levelWeight(params, i, l)}`);
    return `CASE ${ident(gammaColumn(a))} ${cases.join(' ')} ELSE 0 END`;
  });
  const probability = `100.0 / (1.0 + power(2.0, -(${prior} + ${weights.join(' + ')})))`;
  const deterministic = model.deterministic_rules.map(
    (r) => `(${r.attributes.map((a) => `${ident(gammaColumn(a))} = ${levelCount(model, a) - 1}`).join(' AND ')})`,
  );
  const hard = attrs.filter((a) => model.attributes[a].hard_identifier).map((a) => `${ident(gammaColumn(a))} = 0`);
  let score = `round(${probability}, 1)`;
  if (hard.length) score = `CASE WHEN ${hard.join(' OR ')} THEN least(${score}, ${SCORE_LINK - 1}) ELSE ${score} END`;
  if (deterministic.length && hard.length)
    score = `CASE WHEN (${deterministic.join(' OR ')}) AND NOT (${hard.join(' OR ')}) THEN 100.0 ELSE ${score} END`;
  else if (deterministic.length) score = `CASE WHEN ${deterministic.join(' OR ')} THEN 100.0 ELSE ${score} END`;
  if (!mustLinks.length) return `SELECT p.*, ${score} AS score FROM ${tableSql(t.candidates)} p`;
  // A steward's approved pair is an edge of 100: scored so when it is a candidate, added when it is not.
  const values = `(VALUES ${mustLinks.map(([a, b]) => `(${lit(a)}, ${lit(b)})`).join(', ')}) AS ml(a, b)`;
  const blk = model.blocking_rules.map((_, j) => ident(membershipColumn(j)));
  const cols = ['uid_l', 'uid_r', 'rule', ...attributesOf(model).map((a) => ident(gammaColumn(a))), ...blk, 'run_id'];
  const approved = `EXISTS (SELECT 1 FROM ${values} WHERE ml.a = p.uid_l AND ml.b = p.uid_r)`;
  const added =
    `SELECT ml.a AS uid_l, ml.b AS uid_r, 'must_link' AS rule, ${attributesOf(model)
      .map((a) => `CAST(NULL AS INT) AS ${ident(gammaColumn(a))}`)
      .join(
        ', ',
      )}, ${blk.map((b) => `FALSE AS ${b}`).join(', ')}, ${lit(runId)} AS run_id, 100.0 AS score FROM ${values} ` +
    `JOIN ${tableSql(t.work)} wa ON wa.uid = ml.a JOIN ${tableSql(t.work)} wb ON wb.uid = ml.b ` +
    `WHERE NOT EXISTS (SELECT 1 FROM ${tableSql(t.candidates)} c WHERE c.uid_l = ml.a AND c.uid_r = ml.b)`;
  return (
    `SELECT ${cols.map((c) => `p.${c}`).join(', ')}, CASE WHEN ${approved} THEN 100.0 ELSE ${score} END AS score ` +
    `FROM ${tableSql(t.candidates)} p UNION ALL ${added}`
  );
}

/** Incremental runs: the previous run's scored pairs whose two records are both unchanged and still live. */
export const keptPairsSql = (t: MatchTables) =>
  `SELECT p.* FROM ${tableSql(t.pairs)} p JOIN ${tableSql(t.work)} l ON l.uid = p.uid_l AND NOT l.c ` +
  `JOIN ${tableSql(t.work)} r ON r.uid = p.uid_r AND NOT r.c`;

/** Score bands of the scored pairs, and pairs per blocking rule. */
export function bandsSql(t: MatchTables, reviewFloor: number): string {
  return (
    `SELECT rule, count_if(score >= ${SCORE_MERGE}) AS merged, count_if(score >= ${SCORE_LINK} AND score < ${SCORE_MERGE}) AS reviewable, ` +
    `count_if(score >= ${reviewFloor} AND score < ${SCORE_LINK}) AS suspected, count_if(score < ${reviewFloor}) AS apart, ` +
    `count(*) AS pairs FROM ${tableSql(t.pairs)} GROUP BY rule ORDER BY rule`
  );
}

const edgesSql = (t: MatchTables) =>
  `(SELECT uid_l AS a, uid_r AS b FROM ${tableSql(t.pairs)} WHERE score >= ${SCORE_LINK} ` +
  `UNION ALL SELECT uid_r AS a, uid_l AS b FROM ${tableSql(t.pairs)} WHERE score >= ${SCORE_LINK})`;

/** Every live record its own cluster. */
export const initialLabelsSql = (t: MatchTables) => `SELECT uid, uid AS label FROM ${tableSql(t.work)}`;

/**
 * One step of connected components: each record takes the smallest label among itself and its neighbours over
 * edges scoring ≥ 75. Repeated until no label changes (as many steps as the widest cluster's diameter).
 */
export function labelStepSql(t: MatchTables, from: RecordsTable): string {
  return (
    `SELECT n.uid, least(n.label, coalesce(min(m.label), n.label)) AS label FROM ${tableSql(from)} n ` +
    `LEFT JOIN ${edgesSql(t)} e ON e.a = n.uid LEFT JOIN ${tableSql(from)} m ON m.uid = e.b GROUP BY n.uid, n.label`
  );
}

export const labelChangesSql = (a: RecordsTable, b: RecordsTable) =>
  `SELECT count(*) AS changed FROM ${tableSql(a)} x JOIN ${tableSql(b)} y ON x.uid = y.uid WHERE x.label <> y.label`;

/**
 * Golden record ids, stable: every previous golden record goes to the cluster holding most of its records, and a
 * cluster keeps the id of the golden record it shares the most records with (ties: the smaller label, the
 * smaller id); a cluster without one gets a new id from its label and the run.
 */
export function assignSql(t: MatchTables, labels: RecordsTable, runId: string, hasPrevious: boolean): string {
  // `size`: the cluster's records (a single record skips survivorship's window functions when published)
  const cur = `SELECT uid, label, count(*) OVER (PARTITION BY label) AS size FROM ${tableSql(labels)}`;
  const fresh = `concat('GR-', substr(md5(concat(${lit(runId)}, c.label)), 1, 16))`;
  if (!hasPrevious) return `SELECT c.uid, c.label, ${fresh} AS entity_id, c.size FROM (${cur}) c`;
  const overlap =
    `SELECT c.label, o.entity_id, count(*) AS n FROM (${cur}) c JOIN ${tableSql(t.members)} o ON o.uid = c.uid ` +
    `GROUP BY c.label, o.entity_id`;
  const byEntity = `SELECT *, row_number() OVER (PARTITION BY entity_id ORDER BY n DESC, label) AS re FROM (${overlap}) o`;
  const claimed = `SELECT label, entity_id, row_number() OVER (PARTITION BY label ORDER BY n DESC, entity_id) AS rl FROM (${byEntity}) b WHERE re = 1`;
  return (
    `SELECT c.uid, c.label, coalesce(k.entity_id, ${fresh}) AS entity_id, c.size FROM (${cur}) c ` +
    `LEFT JOIN (SELECT * FROM (${claimed}) x WHERE rl = 1) k ON k.label = c.label`
  );
}

/** The survivorship strategy's order keys of an attribute (best first), before the fixed tie-break. */
export function survivorKeys(model: MdmModel, attr: string): string[] {
  const a = ident(attr);
  const strategy = model.attributes[attr].survivorship;
  const keys: Record<typeof strategy, string[]> = {
    most_trusted: ['trust DESC', 'priority ASC', 'source_updated_at DESC NULLS LAST'],
    most_recent: ['source_updated_at DESC NULLS LAST', 'trust DESC'],
    most_complete: ['filled DESC', 'trust DESC'],
    longest: [`length(${a}) DESC`, 'trust DESC'],
    most_frequent: [`${ident(`freq_${attr}`)} DESC`, 'trust DESC'],
    source_priority: ['priority ASC', 'trust DESC'],
  };
  return keys[strategy];
}

/** Survivorship order of an attribute's values inside a golden record (best first), then a fixed tie-break. */
function survivorOrder(model: MdmModel, attr: string): string {
  const a = ident(attr);
  return [`CASE WHEN ${a} IS NULL THEN 1 ELSE 0 END`, ...survivorKeys(model, attr), `${a} ASC`, 'uid ASC'].join(', ');
}

/**
 * Each live record of a golden record with two or more records, with its golden record id and, per attribute,
 * how often its value occurs in that record (single records need no survivorship).
 */
export function survivorRowsSql(model: MdmModel, t: MatchTables): string {
  const freq = attributesOf(model).map(
    (a) => `count(*) OVER (PARTITION BY g.entity_id, w.${ident(a)}) AS ${ident(`freq_${a}`)}`,
  );
  return (
    `SELECT g.entity_id, w.*, ${freq.join(', ')} FROM ${tableSql(t.assign)} g JOIN ${tableSql(t.work)} w ` +
    `ON w.uid = g.uid WHERE g.size > 1`
  );
}

/**
 * The golden records of this run, one row each: surviving values with their source record (provenance), the
 * weakest link (the lowest, over its records, of each record's strongest edge inside the cluster; 100 alone),
 * status by band, and the previous records whose id no cluster kept (merged_into_other, or archived when none of
 * their records is live). One overwrite publishes them.
 */
export function goldenSql(
  model: MdmModel,
  t: MatchTables,
  runId: string,
  entityType: string,
  ts: string,
  hasPrevious: boolean,
): string {
  const attrs = attributesOf(model);
  const rows = survivorRowsSql(model, t);
  const picks = attrs.flatMap((a) => [
    `first_value(${ident(a)}) OVER (PARTITION BY entity_id ORDER BY ${survivorOrder(model, a)}) AS ${ident(a)}`,
    `first_value(CASE WHEN ${ident(a)} IS NULL THEN NULL ELSE uid END) OVER (PARTITION BY entity_id ORDER BY ${survivorOrder(model, a)}) AS ${ident(`${a}__source`)}`,
  ]);
  const picked = `SELECT entity_id, uid, ${picks.join(', ')} FROM (${rows}) r`;
  const strongest =
    `SELECT x.uid, max(e.score) AS best FROM ${tableSql(t.assign)} x JOIN (SELECT uid_l AS a, uid_r AS b, score FROM ` +
    `${tableSql(t.pairs)} WHERE score >= ${SCORE_LINK} UNION ALL SELECT uid_r AS a, uid_l AS b, score FROM ${tableSql(t.pairs)} ` +
    `WHERE score >= ${SCORE_LINK}) e ON e.a = x.uid JOIN ${tableSql(t.assign)} y ON y.uid = e.b AND y.entity_id = x.entity_id GROUP BY x.uid`;
  const values = attrs.flatMap((a) => [
    `min(v.${ident(a)}) AS ${ident(a)}`,
    `min(v.${ident(`${a}__source`)}) AS ${ident(`${a}__source`)}`,
  ]);
  const confidence = `min(coalesce(s.best, 100.0))`;
  const at = `CAST(${lit(ts)} AS TIMESTAMP)`;
  const created = hasPrevious ? `coalesce(min(o.created_at), ${at})` : at;
  // A steward's archive holds while the record's id lives.
  const archived = hasPrevious ? `WHEN max(o.status) = 'archived' THEN 'archived' ` : '';
  const prevJoin = hasPrevious ? ` LEFT JOIN ${tableSql(t.golden)} o ON o.entity_id = v.entity_id` : '';
  const current =
    `SELECT v.entity_id, ${lit(entityType)} AS entity_type, CASE ${archived}WHEN ${confidence} >= ${SCORE_MERGE} THEN 'active' ELSE 'under_review' END AS status, ` +
    `${hasPrevious ? `coalesce(max(o.status), '') <> 'archived' AND ` : ''}${confidence} < ${SCORE_MERGE} AS reviewable, ${confidence} AS confidence_score, count(DISTINCT v.uid) AS record_count, ` +
    `${values.join(', ')}, CAST(NULL AS STRING) AS merged_into, ${created} AS created_at, ${at} AS updated_at, ${lit(runId)} AS run_id ` +
    `FROM (${picked}) v LEFT JOIN (${strongest}) s ON s.uid = v.uid${prevJoin} GROUP BY v.entity_id`;
  // Single records (most of them): their own values, confidence 100, no window function or join on the pairs.
  const own = attrs.flatMap((a) => [
    `w.${ident(a)} AS ${ident(a)}`,
    `CASE WHEN w.${ident(a)} IS NULL THEN NULL ELSE w.uid END AS ${ident(`${a}__source`)}`,
  ]);
  const single =
    `SELECT g.entity_id, ${lit(entityType)} AS entity_type, ${hasPrevious ? `CASE WHEN o.status = 'archived' THEN 'archived' ELSE 'active' END` : `'active'`} AS status, ` +
    `FALSE AS reviewable, CAST(100.0 AS DOUBLE) AS confidence_score, CAST(1 AS BIGINT) AS record_count, ${own.join(', ')}, ` +
    `CAST(NULL AS STRING) AS merged_into, ${hasPrevious ? `coalesce(o.created_at, ${at})` : at} AS created_at, ${at} AS updated_at, ${lit(runId)} AS run_id ` +
    `FROM ${tableSql(t.assign)} g JOIN ${tableSql(t.work)} w ON w.uid = g.uid` +
    `${hasPrevious ? ` LEFT JOIN ${tableSql(t.golden)} o ON o.entity_id = g.entity_id` : ''} WHERE g.size = 1`;
  if (!hasPrevious) return `${current} UNION ALL ${single}`;
  // Previous golden records no cluster kept: merged into the one now holding most of their records, else archived.
  const movedTo =
    `SELECT m.entity_id AS old_id, a.entity_id AS new_id, row_number() OVER (PARTITION BY m.entity_id ORDER BY count(*) DESC, a.entity_id) AS rk ` +
    `FROM ${tableSql(t.members)} m JOIN ${tableSql(t.assign)} a ON a.uid = m.uid GROUP BY m.entity_id, a.entity_id`;
  const cols = attrs.flatMap((a) => [`o.${ident(a)}`, `o.${ident(`${a}__source`)}`]);
  const gone =
    `SELECT o.entity_id, o.entity_type, CASE WHEN o.status IN ('merged_into_other', 'archived') THEN o.status ` +
    `WHEN mv.new_id IS NOT NULL THEN 'merged_into_other' ELSE 'archived' END AS status, FALSE AS reviewable, o.confidence_score, ` +
    `o.record_count, ${cols.join(', ')}, CASE WHEN o.status IN ('merged_into_other', 'archived') THEN o.merged_into ELSE mv.new_id END AS merged_into, ` +
    `o.created_at, CASE WHEN o.status IN ('merged_into_other', 'archived') THEN o.updated_at ELSE ${at} END AS updated_at, ` +
    `CASE WHEN o.status IN ('merged_into_other', 'archived') THEN o.run_id ELSE ${lit(runId)} END AS run_id ` +
    `FROM ${tableSql(t.golden)} o LEFT JOIN (SELECT * FROM (${movedTo}) q WHERE rk = 1) mv ON mv.old_id = o.entity_id ` +
    `WHERE o.entity_id NOT IN (SELECT entity_id FROM ${tableSql(t.assign)})`;
  return `${current} UNION ALL ${single} UNION ALL ${gone}`;
}

/** The membership published with the golden records: entity_id, uid, system, record_id. */
export const membersSql = (t: MatchTables, runId: string) =>
  `SELECT a.entity_id, a.uid, w.system, w.record_id, ${lit(runId)} AS run_id FROM ${tableSql(t.assign)} a JOIN ${tableSql(t.work)} w ON w.uid = a.uid`;

/** What this run did to golden records: created, merged away, archived, and how many are under review. */
export const publishCountsSql = (t: MatchTables, runId: string) =>
  `SELECT count_if(run_id = ${lit(runId)} AND created_at = updated_at AND status IN ('active', 'under_review')) AS created, ` +
  `count_if(run_id = ${lit(runId)} AND status = 'merged_into_other') AS merged, ` +
  `count_if(run_id = ${lit(runId)} AND status = 'archived') AS archived, ` +
  `count_if(status = 'active') AS active, count_if(status = 'under_review') AS under_review FROM ${tableSql(t.golden)}`;

/**
 * Pairwise and B-cubed precision, recall and F1 of the published clusters against a truth table
 * `{system, record_id, entity_id}` (records on both sides only).
 */
export function evaluateSql(t: MatchTables, truthFqn: string): string {
  const truth = truthFqn.split('.').map(ident).join('.');
  const m = `SELECT g.entity_id AS c, t.entity_id AS e FROM ${tableSql(t.members)} g JOIN ${truth} t ON t.system = g.system AND CAST(t.record_id AS STRING) = g.record_id`;
  const ce = `SELECT c, e, count(*) AS n FROM (${m}) m GROUP BY c, e`;
  const cs = `SELECT c, count(*) AS n FROM (${m}) m GROUP BY c`;
  const es = `SELECT e, count(*) AS n FROM (${m}) m GROUP BY e`;
  return (
    `SELECT (SELECT coalesce(sum(n * (n - 1) / 2), 0) FROM (${ce}) a) AS tp, ` +
    `(SELECT coalesce(sum(n * (n - 1) / 2), 0) FROM (${cs}) b) AS predicted, ` +
    `(SELECT coalesce(sum(n * (n - 1) / 2), 0) FROM (${es}) d) AS actual, ` +
    `(SELECT coalesce(sum(x.n * x.n / y.n), 0) FROM (${ce}) x JOIN (${cs}) y ON y.c = x.c) AS b3_precision_sum, ` +
    `(SELECT coalesce(sum(x.n * x.n / y.n), 0) FROM (${ce}) x JOIN (${es}) y ON y.e = x.e) AS b3_recall_sum, ` +
    `(SELECT count(*) FROM (${m}) z) AS records`
  );
}

/** The live records of an entity type, as blocking analysis reads them without a run. */
export const liveRecordsSql = (model: MdmModel, t: MatchTables) => `(${workSql(model, t)})`;

export const tableOf = tableSql;
export { ident, lit };
