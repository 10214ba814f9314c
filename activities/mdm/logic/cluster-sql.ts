import { lit } from '../../data-quality/logic/sql-text';
import { SCORE_LINK, type MatchTables } from './match-sql';
import { tableSql, type RecordsTable } from './standardise';

/**
 * Clustering in SQL: connected components of the pairs scoring ≥ 75, then stable golden record ids. Labels are
 * computed over the linked records only (most records link to nothing and stay their own cluster).
 */

/** The linking edges, both directions, with their score: one small table the label steps and publishing read. */
export const edgesSql = (t: MatchTables) =>
  `SELECT uid_l AS a, uid_r AS b, score FROM ${tableSql(t.pairs)} WHERE score >= ${SCORE_LINK} ` +
  `UNION ALL SELECT uid_r AS a, uid_l AS b, score FROM ${tableSql(t.pairs)} WHERE score >= ${SCORE_LINK}`;

/** Each linked record with the smallest of itself and its neighbours as its label (the first step). */
export const linkedLabelsSql = (t: MatchTables) =>
  `SELECT a AS uid, least(a, min(b)) AS label FROM ${tableSql(t.edges)} GROUP BY a`;

/**
 * One step of connected components over the linked records: each takes the smallest label among itself and its
 * neighbours, then the label its label's record has (a jump, so long chains converge in fewer steps). Repeated
 * until no label changes.
 */
export function labelStepSql(t: MatchTables, from: RecordsTable): string {
  const step =
    `SELECT n.uid, least(n.label, min(m.label)) AS label FROM ${tableSql(from)} n JOIN ${tableSql(t.edges)} e ` +
    `ON e.a = n.uid JOIN ${tableSql(from)} m ON m.uid = e.b GROUP BY n.uid, n.label`;
  return (
    `SELECT s.uid, least(s.label, coalesce(j.label, s.label)) AS label FROM (${step}) s ` +
    `LEFT JOIN (${step}) j ON j.uid = s.label`
  );
}

export const labelChangesSql = (a: RecordsTable, b: RecordsTable) =>
  `SELECT count(*) AS changed FROM ${tableSql(a)} x JOIN ${tableSql(b)} y ON x.uid = y.uid WHERE x.label <> y.label`;

/**
 * Every live record's label: its component's over the linked records, else its own. `component` keeps the label
 * of the connected component (negative-match rules may split a label later, never the component) and `dirty` says
 * the record's cluster was computed afresh by this run (every record in a full clustering).
 */
export const allLabelsSql = (t: MatchTables, linked: RecordsTable, runId: string) =>
  `SELECT w.uid, coalesce(l.label, w.uid) AS label, coalesce(l.label, w.uid) AS component, TRUE AS dirty, ` +
  `${lit(runId)} AS run_id FROM ${tableSql(t.work)} w LEFT JOIN ${tableSql(linked)} l ON l.uid = w.uid`;

/**
 * Golden record ids, stable: every previous golden record goes to the cluster holding most of its records, and a
 * cluster keeps the id of the golden record it shares the most records with (ties: the smaller label, the
 * smaller id); a cluster without one gets a new id from its label and the run. `labels` is a table or a
 * parenthesised relation of (uid, label); `kept` is false (publishing's incremental path keeps clusters itself).
 */
export function assignSql(t: MatchTables, labels: RecordsTable | string, runId: string, hasPrevious: boolean): string {
  const from = typeof labels === 'string' ? labels : tableSql(labels);
  // `size`: the cluster's records (a single record skips survivorship's window functions when published)
  const cur = `SELECT uid, label, count(*) OVER (PARTITION BY label) AS size FROM ${from} cl`;
  const fresh = `concat('GR-', substr(md5(concat(${lit(runId)}, c.label)), 1, 16))`;
  if (!hasPrevious) return `SELECT c.uid, c.label, ${fresh} AS entity_id, c.size, FALSE AS kept FROM (${cur}) c`;
  const overlap =
    `SELECT c.label, o.entity_id, count(*) AS n FROM (${cur}) c JOIN ${tableSql(t.members)} o ON o.uid = c.uid ` +
    `GROUP BY c.label, o.entity_id`;
  const byEntity = `SELECT *, row_number() OVER (PARTITION BY entity_id ORDER BY n DESC, label) AS re FROM (${overlap}) o`;
  const claimed = `SELECT label, entity_id, row_number() OVER (PARTITION BY label ORDER BY n DESC, entity_id) AS rl FROM (${byEntity}) b WHERE re = 1`;
  return (
    `SELECT c.uid, c.label, coalesce(k.entity_id, ${fresh}) AS entity_id, c.size, FALSE AS kept FROM (${cur}) c ` +
    `LEFT JOIN (SELECT * FROM (${claimed}) x WHERE rl = 1) k ON k.label = c.label`
  );
}
