import { lit } from '../../data-quality/logic/sql-text';
import { SCORE_LINK, type MatchTables } from './match-sql';
import { tableSql, type RecordsTable } from './standardise';

/**
 * Incremental clustering: only the connected components a run can have changed are computed again. A component
 * is dirty when it holds (before or after) a new, changed or deleted record, or an end of a linking edge that
 * appeared, went or changed its score; every other component keeps its records and edges, so its label (the
 * smallest uid) is the one a full clustering gives. Read before the run's labels and edges replace the previous
 * ones; a retry after the labels were replaced also takes the records this run already marked dirty.
 */

/** Linking edges (a < b) whose presence or score differs between the previous edge table and this run's pairs. */
export const edgeChangesSql = (t: MatchTables) =>
  `SELECT coalesce(n.a, o.a) AS a, coalesce(n.b, o.b) AS b FROM ` +
  `(SELECT uid_l AS a, uid_r AS b, score FROM ${tableSql(t.pairs)} WHERE score >= ${SCORE_LINK}) n FULL OUTER JOIN ` +
  `(SELECT a, b, score FROM ${tableSql(t.edges)} WHERE a < b) o ON o.a = n.a AND o.b = n.b ` +
  `WHERE n.score IS DISTINCT FROM o.score`;

/** The records whose component must be computed again: changed, deleted, ends of changed edges. */
export function seedsSql(t: MatchTables, runId: string): string {
  return (
    `SELECT uid FROM ${tableSql(t.work)} WHERE c ` +
    `UNION SELECT uid FROM ${tableSql(t.labels)} WHERE uid NOT IN (SELECT uid FROM ${tableSql(t.work)}) ` +
    `UNION SELECT CASE WHEN s.i = 0 THEN d.a ELSE d.b END AS uid FROM (${edgeChangesSql(t)}) d ` +
    `CROSS JOIN (VALUES (0), (1)) AS s(i) ` +
    `UNION SELECT uid FROM ${tableSql(t.labels)} WHERE dirty AND run_id = ${lit(runId)}`
  );
}

/** Live records of a dirty component (by the previous components), and every record without one (new). */
export function dirtyRecordsSql(t: MatchTables, runId: string): string {
  const components = `SELECT component FROM ${tableSql(t.labels)} WHERE uid IN (${seedsSql(t, runId)})`;
  return (
    `SELECT w.uid FROM ${tableSql(t.work)} w LEFT JOIN ${tableSql(t.labels)} o ON o.uid = w.uid ` +
    `WHERE w.c OR o.uid IS NULL OR o.component IN (${components})`
  );
}

/** The linking edges among the dirty records (`dirty`: their table; an edge never joins a dirty record to a clean one). */
export const dirtyEdgesSql = (t: MatchTables, dirty: RecordsTable) =>
  `SELECT uid_l, uid_r FROM ${tableSql(t.pairs)} WHERE score >= ${SCORE_LINK} ` +
  `AND uid_l IN (SELECT uid FROM ${tableSql(dirty)}) AND uid_r IN (SELECT uid FROM ${tableSql(dirty)})`;

/**
 * Every live record's label: a clean record keeps its previous component's, a dirty one takes the label found
 * for it (`found`: uid → label, records with edges) or its own. Columns as `allLabelsSql`'s.
 */
export function incrementalLabelsSql(
  t: MatchTables,
  dirty: RecordsTable,
  runId: string,
  found: Map<string, string>,
): string {
  const values = [...found].map(([uid, label]) => `(${lit(uid)}, ${lit(label)})`).join(', ');
  const foundJoin = values ? ` LEFT JOIN (VALUES ${values}) AS v(uid, label) ON v.uid = w.uid` : '';
  const label = `coalesce(${values ? 'v.label, ' : ''}CASE WHEN d.uid IS NOT NULL THEN w.uid ELSE o.component END)`;
  return (
    `SELECT w.uid, ${label} AS label, ${label} AS component, d.uid IS NOT NULL AS dirty, ${lit(runId)} AS run_id ` +
    `FROM ${tableSql(t.work)} w LEFT JOIN ${tableSql(t.labels)} o ON o.uid = w.uid ` +
    `LEFT JOIN ${tableSql(dirty)} d ON d.uid = w.uid${foundJoin}`
  );
}
