import type { Workspace } from '../../platform/port';
import { assignSql } from './logic/cluster-sql';
import {
  goldenSql,
  membersSql,
  overriddenCountSql,
  publishCountsSql,
  withOverridesSql,
  type OverridesByAttribute,
} from './logic/golden-sql';
import { lit, tableOf } from './logic/match-sql';
import { incrementalAssignSql, keptGoldenSql } from './logic/publish-incremental-sql';
import type { StewardDecisions } from './match-cases';
import { tables, type MatchStepInput } from './match';

const num = (v: unknown) => Number(v ?? 0);
const tableName = tableOf;

export interface PublishCounts {
  created: number;
  merged: number;
  archived: number;
  active: number;
  under_review: number;
  /** Golden records with a steward's value in some attribute. */
  overridden: number;
}

/**
 * Steward overrides win over survivorship on every run: each attribute's overridden golden records (by id, or the
 * one now holding the override's first record, from the run's id assignment) with the value and who set it.
 */
export async function overridesByAttribute(
  ws: Workspace,
  req: MatchStepInput & { overrides: StewardDecisions['overrides'] },
): Promise<OverridesByAttribute> {
  const t = tables(req);
  const known = req.overrides.filter((o) => o.attribute in req.model.attributes);
  const out: OverridesByAttribute = new Map();
  if (!known.length) return out;
  const uids = [...new Set(known.flatMap((o) => o.records.slice(0, 1)))];
  const holder = new Map<string, string>();
  if (uids.length)
    for (const r of (
      await ws.query(`SELECT uid, entity_id FROM ${tableName(t.assign)} WHERE uid IN (${uids.map(lit).join(', ')})`)
    ).rows)
      holder.set(String(r.uid), String(r.entity_id));
  for (const o of known) {
    const id = o.entity_id ?? holder.get(o.records[0]);
    if (!id) continue;
    if (!out.has(o.attribute)) out.set(o.attribute, new Map());
    out.get(o.attribute)!.set(id, { value: o.value, by: o.by });
  }
  return out;
}

/**
 * Stable ids, survivorship, status and the steward overrides; the golden records are published by one overwrite,
 * then the membership. Incremental runs keep the golden records of clusters that are exactly a previous golden
 * record with nothing dirty in them as they are (publishing only the changed ones).
 */
export async function publishGolden(
  ws: Workspace,
  req: MatchStepInput & { ts: string; overrides?: StewardDecisions['overrides']; incremental?: boolean },
): Promise<PublishCounts> {
  const t = tables(req);
  const hasPrevious = (await ws.tableExists(t.golden)) && (await ws.tableExists(t.members));
  const labelColumns = (await ws.query(`SELECT * FROM ${tableName(t.labels)} LIMIT 0`)).columns.map((c) => c.name);
  const incremental = !!req.incremental && hasPrevious && labelColumns.includes('dirty');
  const stewarded = {
    entityIds: (req.overrides ?? []).flatMap((o) => (o.entity_id ? [o.entity_id] : [])),
    uids: (req.overrides ?? []).flatMap((o) => o.records.slice(0, 1)),
  };
  const assign = incremental
    ? incrementalAssignSql(req.model, t, req.runId, stewarded)
    : assignSql(t, t.labels, req.runId, hasPrevious);
  await ws.createTableAs({ ref: t.assign, query: assign, replace: true });
  const overrides = await overridesByAttribute(ws, { ...req, overrides: req.overrides ?? [] });
  const kept = incremental ? keptGoldenSql(req.model, t) : undefined;
  const golden = withOverridesSql(
    req.model,
    goldenSql(req.model, t, req.runId, req.model.entity_type, req.ts, hasPrevious, kept),
    overrides,
  );
  if (hasPrevious) await ws.overwriteQuery(t.golden, golden);
  else await ws.createTableAs({ ref: t.golden, query: golden });
  if (hasPrevious) await ws.overwriteQuery(t.members, membersSql(t, req.runId));
  else await ws.createTableAs({ ref: t.members, query: membersSql(t, req.runId) });
  const overridden = overrides.size ? num((await ws.query(overriddenCountSql(req.model, t))).rows[0]?.n) : 0;
  const r = (await ws.query(publishCountsSql(t, req.runId))).rows[0] ?? {};
  return {
    created: num(r.created),
    merged: num(r.merged),
    archived: num(r.archived),
    active: num(r.active),
    under_review: num(r.under_review),
    overridden,
  };
}
