import type { Workspace } from '../../platform/port';
import type { Db } from '../../store/db';
import { activeNegativeMatchRules, addBlockedAttempts } from '../../store/mdm/rules';
import { tableOf } from './logic/match-sql';
import { componentsSql, recluster, relabelSql, violationsSql, type RuleForRun } from './logic/negative-match';
import { tables, type MatchStepInput } from './match';

/** The active negative-match rules of an entity type, as a run applies them. */
export async function rulesForRun(db: Db, entityType: string): Promise<RuleForRun[]> {
  return (await activeNegativeMatchRules(db, entityType)).map((r) => ({
    id: r.id,
    type: r.type as RuleForRun['type'],
    members: r.members.map((m) => m.records.map((x) => `${x.system}:${x.record_id}`)),
    predicate: r.predicate,
  }));
}

export interface NegativeMatchResult {
  /** Clusters in which a rule kept records apart. */
  components: number;
  /** Records of those clusters. */
  records: number;
  /** Clusters the re-clustering added (a split cluster counts its new parts). */
  added: number;
  /** Per rule: the clusters in which it prevented a merge (direct or transitive). */
  blocked: Record<string, number>;
}

/**
 * Negative-match filtering: the clusters holding two records a rule keeps apart are found in SQL; only those are
 * re-clustered here, without the merges a rule refuses, and their new labels are written back.
 */
export async function applyNegativeMatch(
  ws: Workspace,
  req: MatchStepInput & { rules: RuleForRun[] },
): Promise<NegativeMatchResult> {
  const none = { components: 0, records: 0, added: 0, blocked: {} };
  const t = tables(req);
  const sql = violationsSql(t, t.labels, req.rules);
  if (!sql) return none;
  const violations = (await ws.query(sql)).rows.map((r) => ({
    rule_id: String(r.rule_id),
    a: String(r.a),
    b: String(r.b),
    label: String(r.label),
  }));
  if (!violations.length) return none;
  const touched = [...new Set(violations.map((v) => v.label))].sort();
  const q = componentsSql(t, t.labels, touched);
  const records = (await ws.query(q.records)).rows.map((r) => ({ uid: String(r.uid), label: String(r.label) }));
  const edges = (await ws.query(q.edges)).rows.map((r) => ({
    a: String(r.uid_l),
    b: String(r.uid_r),
    score: Number(r.score),
  }));
  const { labels, blocked } = recluster(records, edges, violations);
  const changed = records
    .filter((r) => labels.get(r.uid) !== r.label)
    .map((r) => ({ uid: r.uid, label: labels.get(r.uid)! }));
  await ws.createTableAs({ ref: t.labelsB, query: relabelSql(t.labels, changed), replace: true });
  await ws.createTableAs({ ref: t.labels, query: `SELECT * FROM ${tableOf(t.labelsB)}`, replace: true });
  const groups = new Set(labels.values()).size;
  return { components: touched.length, records: records.length, added: groups - touched.length, blocked };
}

/** Adds the run's prevented merges to the rules' blocked_attempts (once per run). */
export const recordBlocked = (db: Db, runId: string, blocked: Record<string, number>) =>
  addBlockedAttempts(db, runId, blocked);
