import type { Workspace } from '../../platform/port';
import { allLabelsSql, edgesSql, labelChangesSql, labelStepSql, linkedLabelsSql } from './logic/cluster-sql';
import { dirtyEdgesSql, dirtyRecordsSql, incrementalLabelsSql } from './logic/cluster-incremental-sql';
import { componentLabels } from './logic/components';
import { tableOf, type MatchTables } from './logic/match-sql';
import { tables, type MatchStepInput } from './match';

const num = (v: unknown) => Number(v ?? 0);

/** Above this share of dirty records an incremental run clusters everything (in SQL) instead of in the worker. */
const DIRTY_SHARE_MAX = 0.2;

/** Every label in one pass over the linked records, until none changes (a full clustering). */
async function clusterAll(ws: Workspace, t: MatchTables, runId: string, onStep: () => void): Promise<number> {
  await ws.createTableAs({ ref: t.edges, query: edgesSql(t), replace: true });
  await ws.createTableAs({ ref: t.linkedA, query: linkedLabelsSql(t), replace: true });
  let [from, to] = [t.linkedA, t.linkedB];
  let iterations = 0;
  for (;;) {
    iterations++;
    await ws.createTableAs({ ref: to, query: labelStepSql(t, from), replace: true });
    onStep();
    const changed = num((await ws.query(labelChangesSql(from, to))).rows[0]?.changed);
    [from, to] = [to, from];
    if (changed === 0) break;
  }
  await ws.createTableAs({ ref: t.labels, query: allLabelsSql(t, from, runId), replace: true });
  return iterations;
}

/**
 * Incremental: the dirty components' edges to the worker, their components there, the labels written (clean
 * records keep their previous component), then the edge table. Answers false (nothing written) when too many
 * records are dirty or the previous labels have no components.
 */
async function clusterDirty(ws: Workspace, t: MatchTables, runId: string): Promise<boolean> {
  if (!(await ws.tableExists(t.labels)) || !(await ws.tableExists(t.edges))) return false;
  const columns = (await ws.query(`SELECT * FROM ${tableOf(t.labels)} LIMIT 0`)).columns.map((c) => c.name);
  if (!columns.includes('component')) return false;
  await ws.createTableAs({ ref: t.dirty, query: dirtyRecordsSql(t, runId), replace: true });
  const counts = (
    await ws.query(
      `SELECT (SELECT count(*) FROM ${tableOf(t.dirty)}) AS dirty, (SELECT count(*) FROM ${tableOf(t.work)}) AS n`,
    )
  ).rows[0];
  if (num(counts?.dirty) > DIRTY_SHARE_MAX * num(counts?.n)) return false;
  const edges = (await ws.query(dirtyEdgesSql(t, t.dirty))).rows.map((r) => ({
    a: String(r.uid_l),
    b: String(r.uid_r),
  }));
  // the labels first: a retry after them still sees the previous edges, or this run's dirty records
  await ws.createTableAs({
    ref: t.labels,
    query: incrementalLabelsSql(t, t.dirty, runId, componentLabels(edges)),
    replace: true,
  });
  await ws.createTableAs({ ref: t.edges, query: edgesSql(t), replace: true });
  return true;
}

/**
 * Connected components of the edges scoring ≥ 75: in SQL, the edges once, then label steps over the linked
 * records until none changes; every live record's label last (its own when it links to nothing). Incremental
 * runs compute again only the components holding a new, changed or deleted record or a changed edge.
 */
export async function clusterRecords(
  ws: Workspace,
  req: MatchStepInput & { incremental?: boolean },
  onStep: () => void = () => undefined,
): Promise<{ iterations: number; clusters: number }> {
  const t = tables(req);
  const dirtyOnly = req.incremental ? await clusterDirty(ws, t, req.runId) : false;
  const iterations = dirtyOnly ? 1 : await clusterAll(ws, t, req.runId, onStep);
  const clusters = num((await ws.query(`SELECT count(DISTINCT label) AS n FROM ${tableOf(t.labels)}`)).rows[0]?.n);
  return { iterations, clusters };
}
