import { randomBytes } from 'node:crypto';
import { BusinessCalendar, slaState } from '../../activities/mdm/logic/sla';
import { matchTables } from '../../activities/mdm/logic/match-sql';
import { recordsTable } from '../../activities/mdm/logic/standardise';
import {
  approveInPlaceSet,
  entityPredicate,
  mergeGoldenSql,
  moveMembersSet,
  overrideSet,
  recordPredicate,
  singleRecordGoldenSql,
  splitSourceSet,
} from '../../activities/mdm/logic/steward-sql';
import { lit } from '../../activities/data-quality/logic/sql-text';
import type { Workspace } from '../../platform/port';
import { putOverrides, recordKey, recordLinkDecisions, type MdmCaseRow, type RecordRef } from '../../store/mdm/cases';
import { createNegativeMatchRule } from '../../store/mdm/rules';
import { listModels } from '../../store/mdm/repo';
import type { AppDeps } from '../deps';
import { invalid, mdmWorkspace } from './service';

/** Which resolve actions each case type takes (any other is a 422). */
export const CASE_ACTIONS: Record<string, string[]> = {
  match_review: ['approve_match', 'reject', 'override'],
  suspected_duplicate: ['approve_match', 'reject'],
  negative_match_candidate: ['approve_match', 'reject'],
  conflict_resolution: ['override'],
  stewardship_request: ['override', 'close'],
};

export const calendarOf = (deps: AppDeps) => new BusinessCalendar(deps.config.mdm.sla_calendar);

export function caseView(row: MdmCaseRow, cal: BusinessCalendar, now: Date) {
  return {
    case_id: row.id,
    entity_type: row.entityType,
    type: row.type as 'match_review',
    status: row.status as 'open' | 'resolved',
    records: row.records,
    entity_ids: row.entityIds,
    score: row.score,
    attributes: row.attributes,
    details: row.details,
    run_id: row.runId,
    assigned_to: row.assignedTo,
    opened_at: row.openedAt.toISOString(),
    due_at: row.dueAt.toISOString(),
    sla_state: row.status === 'open' ? slaState(cal, row.openedAt, row.dueAt, now) : null,
    resolved_at: row.resolvedAt?.toISOString() ?? null,
    resolved_by: row.resolvedBy,
    resolution: row.resolution,
  };
}

export interface ResolveRequest {
  action: string;
  notes?: string;
  attribute_overrides?: Record<string, string | null>;
  flag_negative_match?: boolean;
}

export interface ResolveEffect {
  merged_into?: string | null;
  split_out?: string | null;
  overrides?: string[];
  negative_match_rule?: string | null;
  golden_updated: boolean;
  note?: string;
}

/** The golden tables of an entity type, and their columns (null when no match run published them yet). */
async function golden(ws: Workspace, catalog: string, entityType: string) {
  const t = matchTables(catalog, entityType);
  if (!(await ws.tableExists(t.golden)) || !(await ws.tableExists(t.members))) return null;
  const columns = (await ws.describeTable(t.golden)).columns.map((c) => c.name);
  return { t, columns };
}

async function entitiesOf(ws: Workspace, members: string, records: RecordRef[]) {
  const where = records.map((r) => `(${recordPredicate(r.system, r.record_id)})`).join(' OR ');
  const rows = (await ws.query(`SELECT entity_id, system, record_id FROM ${members} WHERE ${where}`)).rows;
  return new Map(rows.map((r) => [`${r.system}:${r.record_id}`, String(r.entity_id)]));
}

const fqn = (t: { catalog: string; schema: string; name: string }) =>
  [t.catalog, t.schema, t.name].map((p) => `\`${p.replace(/`/g, '``')}\``).join('.');

/** 422 unless the case's type takes the action (and an override names attributes to set). */
export function checkAction(row: MdmCaseRow, body: ResolveRequest): void {
  const allowed = CASE_ACTIONS[row.type] ?? [];
  if (!allowed.includes(body.action))
    throw invalid('ACTION_NOT_ALLOWED', 'Action not allowed', [
      {
        path: 'body.action',
        message: `a ${row.type} case takes ${allowed.join(', ')}, not ${body.action}`,
      },
    ]);
  if (body.action === 'override' && Object.keys(body.attribute_overrides ?? {}).length === 0)
    throw invalid('INVALID_OVERRIDE', 'Nothing to override', [
      { path: 'body.attribute_overrides', message: 'give at least one attribute and its value' },
    ]);
  if (body.flag_negative_match && body.action !== 'reject')
    throw invalid('INVALID_FLAG', 'Flag without reject', [
      { path: 'body.flag_negative_match', message: 'only a reject adds a negative-match rule' },
    ]);
}

/**
 * The effect of a resolve on the golden tables (now) and in the store (for later runs): approve merges and
 * remembers a must-link, reject splits and remembers a cannot-link (plus a pair rule when flagged), override
 * writes the values and keeps them for survivorship.
 */
export async function applyResolution(
  deps: AppDeps,
  ws: Workspace,
  row: MdmCaseRow,
  body: ResolveRequest,
  actor: string,
  now: Date,
): Promise<ResolveEffect> {
  const db = deps.store.db;
  const catalog = deps.config.mdm.catalog;
  const ts = now.toISOString();
  const runId = `steward:${row.id}`;
  const g = await golden(ws, catalog, row.entityType);
  const effect: ResolveEffect = { golden_updated: false };
  const where = g ? await entitiesOf(ws, fqn(g.t.members), row.records) : new Map<string, string>();
  const ids = [...new Set(row.records.map((r) => where.get(recordKey(r))).filter((x): x is string => Boolean(x)))];

  if (body.action === 'approve_match') {
    await recordLinkDecisions(db, row.entityType, 'must_link', row.records, actor, row.id);
    if (g && ids.length === 1) {
      await ws.updateWhere(g.t.golden, approveInPlaceSet(ts), entityPredicate(ids[0]));
      effect.merged_into = ids[0];
      effect.golden_updated = true;
    } else if (g && ids.length > 1) {
      const counts = (
        await ws.query(
          `SELECT entity_id, record_count FROM ${fqn(g.t.golden)} WHERE entity_id IN (${ids.map(lit).join(', ')})`,
        )
      ).rows;
      const ranked = counts
        .map((r) => ({ id: String(r.entity_id), n: Number(r.record_count) }))
        .sort((a, b) => b.n - a.n || (a.id < b.id ? -1 : 1));
      const survivor = ranked[0].id;
      for (const other of ranked.slice(1)) {
        await ws.updateWhere(g.t.members, moveMembersSet(survivor, runId), entityPredicate(other.id));
        await ws.overwriteQuery(g.t.golden, mergeGoldenSql(g.t.golden, g.columns, survivor, other.id, ts));
      }
      effect.merged_into = survivor;
      effect.golden_updated = true;
    } else effect.note = 'no published golden record holds these records yet: the next match run links them';
  } else if (body.action === 'reject') {
    await recordLinkDecisions(db, row.entityType, 'cannot_link', row.records, actor, row.id);
    const first = row.records[0];
    const home = where.get(recordKey(first));
    const together = row.records.slice(1).filter((r) => home && where.get(recordKey(r)) === home);
    if (g && home && together.length) {
      for (const r of together) {
        const fresh = `GR-${randomBytes(8).toString('hex')}`;
        await ws.insertQuery(
          g.t.golden,
          singleRecordGoldenSql(
            g.t.golden,
            recordsTable(catalog, row.entityType),
            g.columns,
            fresh,
            row.entityType,
            r.system,
            r.record_id,
            runId,
            ts,
          ),
        );
        await ws.updateWhere(g.t.members, moveMembersSet(fresh, runId), recordPredicate(r.system, r.record_id));
        await ws.updateWhere(g.t.golden, splitSourceSet(ts), entityPredicate(home));
        effect.split_out = fresh;
      }
      effect.golden_updated = true;
    }
    if (body.flag_negative_match) {
      const rule = await createNegativeMatchRule(db, {
        entityType: row.entityType,
        type: 'pair',
        members: row.records.slice(0, 2).map((r) => ({ entity_id: null, records: [r] })),
        predicate: null,
        reason: body.notes?.trim() || `rejected in stewardship case ${row.id}`,
        status: 'active',
        createdBy: actor,
      });
      effect.negative_match_rule = rule.id;
    }
  } else if (body.action === 'override') {
    const values = body.attribute_overrides ?? {};
    const entityId = ids[0] ?? row.entityIds[0] ?? null;
    if (g) {
      const attrs = new Set(g.columns);
      const unknown = Object.keys(values).filter((a) => !attrs.has(`${a}__source`));
      if (unknown.length)
        throw invalid(
          'UNKNOWN_ATTRIBUTE',
          'Unknown attribute',
          unknown.map((a) => ({
            path: `body.attribute_overrides.${a}`,
            message: `not an attribute of ${row.entityType}`,
          })),
        );
    }
    await putOverrides(db, row.entityType, { entity_id: entityId, records: row.records }, values, actor, row.id);
    effect.overrides = Object.keys(values).sort();
    if (g && entityId) {
      await ws.updateWhere(g.t.golden, overrideSet(values, g.columns), entityPredicate(entityId));
      effect.golden_updated = true;
    }
  }
  return effect;
}

/**
 * A steward override of a golden record's attributes outside a case (what PATCH of an entity's attributes does):
 * written into the golden record now, with provenance `steward`, and kept for survivorship on every later run.
 * Answers the entity type, or undefined when no published golden record has this id.
 */
export async function overrideEntity(
  deps: AppDeps,
  entityId: string,
  values: Record<string, string | null>,
  actor: string,
): Promise<{ entity_type: string; attributes: string[] } | undefined> {
  const ws = await mdmWorkspace(deps);
  for (const m of await listModels(deps.store.db)) {
    const g = await golden(ws, deps.config.mdm.catalog, m.entityType);
    if (!g) continue;
    const found = (await ws.query(`SELECT entity_id FROM ${fqn(g.t.golden)} WHERE entity_id = ${lit(entityId)}`)).rows;
    if (!found.length) continue;
    const unknown = Object.keys(values).filter((a) => !g.columns.includes(`${a}__source`));
    if (unknown.length)
      throw invalid(
        'UNKNOWN_ATTRIBUTE',
        'Unknown attribute',
        unknown.map((a) => ({ path: `body.attributes.${a}`, message: `not an attribute of ${m.entityType}` })),
      );
    const members = (
      await ws.query(`SELECT system, record_id FROM ${fqn(g.t.members)} WHERE entity_id = ${lit(entityId)}`)
    ).rows.map((r) => ({ system: String(r.system), record_id: String(r.record_id) }));
    await putOverrides(deps.store.db, m.entityType, { entity_id: entityId, records: members }, values, actor, null);
    await ws.updateWhere(g.t.golden, overrideSet(values, g.columns), entityPredicate(entityId));
    return { entity_type: m.entityType, attributes: Object.keys(values).sort() };
  }
  return undefined;
}
