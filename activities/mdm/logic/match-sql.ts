import type { MdmModel } from '../../../schemas/mdm';
import { ident, lit } from '../../data-quality/logic/sql-text';
import { attributesOf, compareColumn, gammaColumn, gammaFromMetrics, levelCount, metricsSelect } from './compare-sql';
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
  /** Pairs scoring ≥ 75 both ways, and the labels of linked records while they converge (two tables in turn). */
  edges: RecordsTable;
  linkedA: RecordsTable;
  linkedB: RecordsTable;
  /** Incremental clustering: the records whose component is computed again. */
  dirty: RecordsTable;
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
    edges: t('match_edges'),
    linkedA: t('match_linked_a'),
    linkedB: t('match_linked_b'),
    dirty: t('match_dirty'),
    members: t('golden_members'),
    golden: t('golden_records'),
  };
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

/** Which run built a work table and under which model (`modelKey`): incremental runs read it before replacing it. */
export interface WorkRun {
  runId: string;
  modelKey: string;
  /** The previous run's work table, to flag records new or changed since; none: every record counts as changed. */
  previous?: RecordsTable;
}

/**
 * The records of this run: live (not deleted) records with `uid`, the system's position in `source_priority`
 * and how many attributes they fill (for most_complete); with `run`, the run and model that built it and `c`.
 */
export function workSql(model: MdmModel, t: MatchTables, run?: WorkRun): string {
  const attrs = attributesOf(model);
  const prio = model.source_priority.length
    ? `CASE ${model.source_priority.map((s, i) => `WHEN system = ${lit(s)} THEN ${i}`).join(' ')} ELSE ${model.source_priority.length} END`
    : '0';
  const filled = attrs.map((a) => `CASE WHEN ${ident(a)} IS NULL THEN 0 ELSE 1 END`).join(' + ');
  const compared = attrs
    .filter((a) => model.attributes[a].kind === 'name')
    .map((a) => `, ${compareExpr('name', ident(a))} AS ${compareColumn(model, a)}`)
    .join('');
  const marks = run ? `, ${lit(run.runId)} AS run_id, ${lit(run.modelKey)} AS model_key` : '';
  const base =
    `SELECT concat(system, ':', record_id) AS uid, system, record_id, trust, ${prio} AS priority, source_updated_at, ` +
    `${attrs.map(ident).join(', ')}${compared}, ${filled} AS filled${marks} FROM ${tableSql(t.records)} WHERE NOT deleted`;
  // `c`: the record is new or changed since the previous run's work table (every record in a full run).
  if (!run?.previous) return `SELECT w.*, TRUE AS c FROM (${base}) w`;
  const same = ['trust', 'priority', 'source_updated_at', ...attrs]
    .map((a) => `w.${ident(a)} IS NOT DISTINCT FROM p.${ident(a)}`)
    .join(' AND ');
  return `SELECT w.*, (p.uid IS NULL OR NOT (${same})) AS c FROM (${base}) w LEFT JOIN ${tableSql(run.previous)} p ON p.uid = w.uid`;
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
 * Every candidate pair once with its comparison levels: the pairs each rule blocks together (uids only, from the
 * blocking keys), each pair under the first rule blocking it (rules OR-ed, no pair scored twice), l.uid < r.uid;
 * then the records' values joined once and each comparison computed once. Incremental: only the pairs holding a
 * new or changed record, from those records' blocks (each changed record against all).
 */
export function pairsSql(model: MdmModel, t: MatchTables, runId: string, incremental = false): string {
  const attrs = attributesOf(model);
  const work = tableSql(t.work);
  // Which rules block the pair (each rule's own pairs train its EM without being built again).
  const memberships = model.blocking_rules
    .map((_, j) => `coalesce(${blockedBy(model, j)}, FALSE) AS ${ident(membershipColumn(j))}`)
    .join(', ');
  // Each comparison function once per pair (inner), the levels from them (outer).
  const gammas = attrs.map((a) => `${gammaFromMetrics(model, a)} AS ${ident(gammaColumn(a))}`).join(', ');
  const blk = model.blocking_rules.map((_, j) => ident(membershipColumn(j))).join(', ');
  const blocked = model.blocking_rules.map((_, i) =>
    incremental
      ? `SELECT CASE WHEN x.uid < y.uid THEN x.uid ELSE y.uid END AS lo, CASE WHEN x.uid < y.uid THEN y.uid ELSE x.uid END AS hi, ` +
        `${i} AS ri FROM (SELECT * FROM ${work} WHERE c) x JOIN ${work} y ON ${blockedBy(model, i, 'x', 'y')} ` +
        `AND x.uid <> y.uid AND (NOT y.c OR x.uid < y.uid)`
      : `SELECT x.uid AS lo, y.uid AS hi, ${i} AS ri FROM ${work} x JOIN ${work} y ON ${blockedBy(model, i, 'x', 'y')} AND x.uid < y.uid`,
  );
  // the first rule blocking a pair is the rule it counts under
  const first = `SELECT lo, hi, min(ri) AS ri FROM (${blocked.join(' UNION ALL ')}) b GROUP BY lo, hi`;
  const rule = `CASE q.ri ${model.blocking_rules.map((r, i) => `WHEN ${i} THEN ${lit(r.name)}`).join(' ')} END`;
  return (
    `SELECT *, ${lit(runId)} AS run_id FROM (SELECT uid_l, uid_r, rule, ${gammas}, ${blk} FROM (SELECT l.uid AS uid_l, ` +
    `r.uid AS uid_r, ${rule} AS rule, ${metricsSelect(model)}, ${memberships} FROM (${first}) q ` +
    `JOIN ${work} l ON l.uid = q.lo JOIN ${work} r ON r.uid = q.hi) m) p`
  );
}

/** The candidate-pair column saying whether blocking rule `j` blocks the pair. */
export const membershipColumn = (j: number) => `blk_${j}`;

/**
 * Agreement-pattern counts per blocking rule, for training: each rule's own pairs, not only those no earlier rule
 * produced (the dedupe of the candidate pairs would hide, say, equal birth dates from every rule after `dob`).
 * Read from the candidate pairs (every pair of every rule is one of them, its memberships say which rules block
 * it), so no comparison is computed twice. `own` counts the pairs the rule built (each candidate pair once over
 * all rules), for λ.
 */
export function patternCountsSql(model: MdmModel, t: MatchTables): string {
  const cols = attributesOf(model)
    .map((a) => ident(gammaColumn(a)))
    .join(', ');
  return model.blocking_rules
    .map(
      (rule, i) =>
        `SELECT ${lit(rule.name)} AS rule, ${cols}, count(*) AS n, count_if(rule = ${lit(rule.name)}) AS own ` +
        `FROM ${tableSql(t.candidates)} ` +
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
  from = tableSql(t.candidates),
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
  if (!mustLinks.length) return `SELECT p.*, ${score} AS score FROM ${from} p`;
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
    `WHERE NOT EXISTS (SELECT 1 FROM ${from} c WHERE c.uid_l = ml.a AND c.uid_r = ml.b)`;
  return (
    `SELECT ${cols.map((c) => `p.${c}`).join(', ')}, CASE WHEN ${approved} THEN 100.0 ELSE ${score} END AS score ` +
    `FROM ${from} p UNION ALL ${added}`
  );
}

/**
 * Incremental runs: this run's candidate pairs (those holding a new or changed record) and the previous run's
 * pairs between two unchanged live records (their levels still hold; a steward's added pair is added again when
 * still approved), as one relation to score: the same pairs, levels and scores as a full run's.
 */
export function incrementalCandidatesSql(model: MdmModel, t: MatchTables): string {
  const cols = [
    'uid_l',
    'uid_r',
    'rule',
    ...attributesOf(model).map((a) => ident(gammaColumn(a))),
    ...model.blocking_rules.map((_, j) => ident(membershipColumn(j))),
    'run_id',
  ].join(', ');
  const unchanged = `(SELECT uid FROM ${tableSql(t.work)} WHERE NOT c)`;
  return (
    `(SELECT ${cols} FROM ${tableSql(t.candidates)} UNION ALL SELECT ${cols} FROM ${tableSql(t.pairs)} ` +
    `WHERE rule <> 'must_link' AND uid_l IN ${unchanged} AND uid_r IN ${unchanged})`
  );
}

/** Score bands of the scored pairs, and pairs per blocking rule. */
export function bandsSql(t: MatchTables, reviewFloor: number): string {
  return (
    `SELECT rule, count_if(score >= ${SCORE_MERGE}) AS merged, count_if(score >= ${SCORE_LINK} AND score < ${SCORE_MERGE}) AS reviewable, ` +
    `count_if(score >= ${reviewFloor} AND score < ${SCORE_LINK}) AS suspected, count_if(score < ${reviewFloor}) AS apart, ` +
    `count(*) AS pairs FROM ${tableSql(t.pairs)} GROUP BY rule ORDER BY rule`
  );
}

/** The live records of an entity type, as blocking analysis reads them without a run. */
export const liveRecordsSql = (model: MdmModel, t: MatchTables) => `(${workSql(model, t)})`;

export const tableOf = tableSql;
export { ident, lit };
export * from './compare-sql';
