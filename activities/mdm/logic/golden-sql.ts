import type { MdmModel } from '../../../schemas/mdm';
import { ident, lit } from '../../data-quality/logic/sql-text';
import { attributesOf } from './compare-sql';
import { SCORE_MERGE, type MatchTables } from './match-sql';
import { tableSql } from './standardise';

/** A golden table's bookkeeping columns before its attribute columns (each `<attr>`, `<attr>__source`), and after. */
export const GOLDEN_HEAD = ['entity_id', 'entity_type', 'status', 'reviewable', 'confidence_score', 'record_count'];
export const GOLDEN_TAIL = ['merged_into', 'created_at', 'updated_at', 'run_id'];

/**
 * Publishing a match run: survivorship per attribute, the golden records with their provenance, confidence and
 * status, the membership, what the run changed, and evaluation against a truth table.
 */

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

/** A whole number as a fixed-width text that sorts as the number does (ascending), or reversed (descending). */
const sortable = (n: string, desc = false) => `lpad(CAST(${desc ? `9999999999 - ${n}` : n} AS STRING), 10, '0')`;

/** The order keys of `survivorKeys`, each as sortable text (recency: the rank by source_updated_at). */
function survivorKeyTexts(model: MdmModel, attr: string): string[] {
  const strategy = model.attributes[attr].survivorship;
  const trust = sortable('trust', true);
  const keys: Record<typeof strategy, string[]> = {
    most_trusted: [trust, sortable('priority'), sortable('recency')],
    most_recent: [sortable('recency'), trust],
    most_complete: [sortable('filled', true), trust],
    longest: [sortable(`length(${ident(attr)})`, true), trust],
    most_frequent: [sortable(ident(`freq_${attr}`), true), trust],
    source_priority: [sortable('priority'), trust],
  };
  return keys[strategy];
}

/**
 * Survivorship order of an attribute's values inside a golden record as one text, the least first: a value
 * before none, the strategy's keys, then a fixed tie-break (the value, then the record). `min_by` over it picks
 * the surviving value in one aggregation, with no sort per attribute; chr(1) ends the value, so a value sorts
 * before its own extensions as it does in ORDER BY.
 */
function survivorKey(model: MdmModel, attr: string): string {
  const a = ident(attr);
  const parts = [
    `CASE WHEN ${a} IS NULL THEN '1' ELSE '0' END`,
    ...survivorKeyTexts(model, attr),
    `coalesce(${a}, '')`,
    'chr(1)',
    'uid',
  ];
  return `concat(${parts.join(', ')})`;
}

/**
 * Each live record of a golden record with two or more records, with its golden record id, its recency (rank by
 * source_updated_at, the latest first, none last) and, per attribute, how often its value occurs in that record
 * (single records need no survivorship).
 */
export function survivorRowsSql(model: MdmModel, t: MatchTables): string {
  // how often each value occurs in its golden record: only most_frequent attributes need it
  const freq = attributesOf(model)
    .filter((a) => model.attributes[a].survivorship === 'most_frequent')
    .map((a) => `, count(*) OVER (PARTITION BY g.entity_id, w.${ident(a)}) AS ${ident(`freq_${a}`)}`);
  return (
    `SELECT g.entity_id, w.*${freq.join('')}, dense_rank() OVER (ORDER BY w.source_updated_at DESC NULLS LAST) AS recency ` +
    `FROM ${tableSql(t.assign)} g JOIN ${tableSql(t.work)} w ON w.uid = g.uid WHERE g.size > 1 AND NOT g.kept`
  );
}

/**
 * The golden records of this run, one row each: surviving values with their source record (provenance), the
 * weakest link (the lowest, over its records, of each record's strongest edge inside the cluster; 100 alone),
 * status by band, and the previous records whose id no cluster kept (merged_into_other, or archived when none of
 * their records is live). One overwrite publishes them. `kept`: the golden records an incremental run keeps as they
 * are (clusters assigned `kept`), with the same columns.
 */
export function goldenSql(
  model: MdmModel,
  t: MatchTables,
  runId: string,
  entityType: string,
  ts: string,
  hasPrevious: boolean,
  kept?: string,
): string {
  const attrs = attributesOf(model);
  const rows = survivorRowsSql(model, t);
  const keys = attrs.map((a) => `${survivorKey(model, a)} AS ${ident(`k_${a}`)}`);
  const keyed = `SELECT r.*, ${keys.join(', ')} FROM (${rows}) r`;
  // each record's strongest link inside its golden record, from the clustering's edge table
  const strongest =
    `SELECT x.uid, max(e.score) AS best FROM ${tableSql(t.assign)} x JOIN ${tableSql(t.edges)} e ON e.a = x.uid ` +
    `JOIN ${tableSql(t.assign)} y ON y.uid = e.b AND y.entity_id = x.entity_id WHERE x.size > 1 AND NOT x.kept GROUP BY x.uid`;
  const values = attrs.flatMap((a) => {
    const [value, key] = [`v.${ident(a)}`, `v.${ident(`k_${a}`)}`];
    return [
      `min_by(${value}, ${key}) AS ${ident(a)}`,
      `CASE WHEN min_by(${value}, ${key}) IS NULL THEN NULL ELSE min_by(v.uid, ${key}) END AS ${ident(`${a}__source`)}`,
    ];
  });
  const confidence = `min(coalesce(s.best, 100.0))`;
  const at = `CAST(${lit(ts)} AS TIMESTAMP)`;
  const created = hasPrevious ? `coalesce(min(o.created_at), ${at})` : at;
  // A steward's archive holds while the record's id lives.
  const archived = hasPrevious ? `WHEN max(o.status) = 'archived' THEN 'archived' ` : '';
  const prevJoin = hasPrevious ? ` LEFT JOIN ${tableSql(t.golden)} o ON o.entity_id = v.entity_id` : '';
  const current =
    `SELECT v.entity_id, ${lit(entityType)} AS entity_type, CASE ${archived}WHEN ${confidence} >= ${SCORE_MERGE} THEN 'active' ELSE 'under_review' END AS status, ` +
    `${hasPrevious ? `coalesce(max(o.status), '') <> 'archived' AND ` : ''}${confidence} < ${SCORE_MERGE} AS reviewable, ${confidence} AS confidence_score, count(*) AS record_count, ` +
    `${values.join(', ')}, CAST(NULL AS STRING) AS merged_into, ${created} AS created_at, ${at} AS updated_at, ${lit(runId)} AS run_id ` +
    `FROM (${keyed}) v LEFT JOIN (${strongest}) s ON s.uid = v.uid${prevJoin} GROUP BY v.entity_id`;
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
    `${hasPrevious ? ` LEFT JOIN ${tableSql(t.golden)} o ON o.entity_id = g.entity_id` : ''} WHERE g.size = 1 AND NOT g.kept`;
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
  return `${current} UNION ALL ${single} UNION ALL ${gone}${kept ? ` UNION ALL ${kept}` : ''}`;
}

/** Steward overrides of one attribute: golden record id → the value (null clears it) and who set it. */
export type OverridesByAttribute = Map<string, Map<string, { value: string | null; by: string }>>;

/**
 * The golden records of `goldenSql` with the steward overrides in place (value, and `steward:<who>` as its
 * source), on active and under-review records: published in the same commit as survivorship's values.
 */
export function withOverridesSql(model: MdmModel, golden: string, overrides: OverridesByAttribute): string {
  if (!overrides.size) return golden;
  const live = `g.status IN ('active', 'under_review')`;
  const cols = attributesOf(model).flatMap((a) => {
    const byEntity = overrides.get(a);
    if (!byEntity?.size) return [`g.${ident(a)}`, `g.${ident(`${a}__source`)}`];
    const when = (f: (v: { value: string | null; by: string }) => string) =>
      [...byEntity].map(([id, v]) => `WHEN g.entity_id = ${lit(id)} AND ${live} THEN ${f(v)}`).join(' ');
    return [
      `CASE ${when((v) => (v.value === null ? 'CAST(NULL AS STRING)' : lit(v.value)))} ELSE g.${ident(a)} END AS ${ident(a)}`,
      `CASE ${when((v) => lit(`steward:${v.by}`))} ELSE g.${ident(`${a}__source`)} END AS ${ident(`${a}__source`)}`,
    ];
  });
  return (
    `SELECT g.entity_id, g.entity_type, g.status, g.reviewable, g.confidence_score, g.record_count, ${cols.join(', ')}, ` +
    `g.merged_into, g.created_at, g.updated_at, g.run_id FROM (${golden}) g`
  );
}

/** Golden records whose value of some attribute a steward set (its source `steward:<who>`). */
export const overriddenCountSql = (model: MdmModel, t: MatchTables) =>
  `SELECT ${attributesOf(model)
    .map((a) => `count_if(${ident(`${a}__source`)} LIKE 'steward:%')`)
    .join(' + ')} AS n FROM ${tableSql(t.golden)} WHERE status IN ('active', 'under_review')`;

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
