import { z } from 'zod';
import { matchTables, tableOf, lit } from '../../activities/mdm/logic/match-sql';
import { checkPattern, patternSql } from '../../activities/mdm/logic/negative-match';
import {
  NegativeMatchBodySchema,
  NegativeMatchCreatedSchema,
  NegativeMatchIdParamsSchema,
  NegativeMatchPatchSchema,
  NegativeMatchQuerySchema,
  NegativeMatchRuleSchema,
  type NegativeMatchBody,
  type NegativeMatchRule,
} from '../../schemas/mdm-rules';
import type { MdmModel } from '../../schemas/mdm';
import { recordMdmAudit } from '../../store/mdm/repo';
import {
  createNegativeMatchRule,
  deleteNegativeMatchRule,
  getNegativeMatchRule,
  listNegativeMatchRules,
  setNegativeMatchRuleStatus,
  type NegativeMatchRuleRow,
  type RuleMember,
} from '../../store/mdm/rules';
import type { AppDeps } from '../deps';
import { notFound } from '../middleware/http-error';
import { route } from '../middleware/route';
import { actorOf, invalid, mdmWorkspace, requireModel } from './service';

/** A rule as the API shows it. */
export function ruleView(row: NegativeMatchRuleRow): NegativeMatchRule {
  const byEntity = row.members.every((m) => m.entity_id !== null);
  return {
    id: row.id,
    entity_type: row.entityType,
    type: row.type as NegativeMatchRule['type'],
    entity_ids: row.type !== 'pattern' && byEntity ? row.members.map((m) => m.entity_id!) : null,
    records: row.type !== 'pattern' && !byEntity ? row.members.flatMap((m) => m.records) : null,
    members: row.members,
    predicate: row.predicate,
    reason: row.reason,
    status: row.status as NegativeMatchRule['status'],
    created_by: row.createdBy,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    blocked_attempts: row.blockedAttempts,
  };
}

const uidOf = (r: { system: string; record_id: string }) => `${r.system}:${r.record_id}`;

/** The members of a pair or group rule: each entity id's current records, or each record alone (422 if unknown). */
async function resolveMembers(deps: AppDeps, model: MdmModel, body: NegativeMatchBody): Promise<RuleMember[]> {
  const ws = await mdmWorkspace(deps);
  const t = matchTables(deps.config.mdm.catalog, model.entity_type);
  if (body.entity_ids) {
    const rows = (await ws.tableExists(t.members))
      ? (
          await ws.query(
            `SELECT entity_id, system, record_id FROM ${tableOf(t.members)} WHERE entity_id IN (${body.entity_ids.map(lit).join(', ')}) ORDER BY system, record_id`,
          )
        ).rows
      : [];
    return body.entity_ids.map((id, i) => {
      const records = rows
        .filter((r) => r.entity_id === id)
        .map((r) => ({ system: String(r.system), record_id: String(r.record_id) }));
      if (!records.length)
        throw invalid('UNKNOWN_ENTITY', 'Unknown golden record', [
          { path: `body.entity_ids.${i}`, message: `no ${model.entity_type} golden record ${id} holds records` },
        ]);
      return { entity_id: id, records };
    });
  }
  const records = body.records!;
  const known = (await ws.tableExists(t.records))
    ? new Set(
        (
          await ws.query(
            `SELECT system, record_id FROM ${tableOf(t.records)} WHERE concat(system, ':', record_id) IN (${records.map((r) => lit(uidOf(r))).join(', ')})`,
          )
        ).rows.map((r) => `${r.system}:${r.record_id}`),
      )
    : new Set<string>();
  const missing = records.findIndex((r) => !known.has(uidOf(r)));
  if (missing >= 0)
    throw invalid('UNKNOWN_RECORD', 'Unknown source record', [
      { path: `body.records.${missing}`, message: `no ${model.entity_type} record ${uidOf(records[missing])}` },
    ]);
  return records.map((r) => ({ entity_id: null, records: [{ system: r.system, record_id: r.record_id }] }));
}

/** The shape problems of a create body: members for pair and group (2 for a pair), a predicate for pattern. */
function checkBody(body: NegativeMatchBody, model: MdmModel) {
  const issues: { path: string; message: string }[] = [];
  if (body.type === 'pattern') {
    if (!body.predicate) issues.push({ path: 'body.predicate', message: 'a pattern rule needs a predicate' });
    if (body.entity_ids || body.records)
      issues.push({ path: 'body.type', message: 'a pattern rule has a predicate, not members' });
    const problem = body.predicate ? checkPattern(body.predicate, Object.keys(model.attributes)) : null;
    if (problem) issues.push({ path: 'body.predicate', message: problem });
  } else {
    if (body.predicate)
      issues.push({ path: 'body.predicate', message: `a ${body.type} rule has members, not a predicate` });
    const members = body.entity_ids ?? body.records;
    if (!members || (body.entity_ids && body.records))
      issues.push({ path: 'body.entity_ids', message: 'give either entity_ids or records' });
    else if (body.type === 'pair' && members.length !== 2)
      issues.push({
        path: body.entity_ids ? 'body.entity_ids' : 'body.records',
        message: 'a pair has exactly 2 members',
      });
  }
  if (issues.length) throw invalid('INVALID_RULE', 'Invalid negative-match rule', issues);
}

/**
 * Golden records that hold two records the new rule keeps apart: marked under_review (with reviewable) so a
 * steward sees them; the next match run splits them.
 */
async function markUnderReview(deps: AppDeps, model: MdmModel, row: NegativeMatchRuleRow): Promise<string[]> {
  const ws = await mdmWorkspace(deps);
  const t = matchTables(deps.config.mdm.catalog, model.entity_type);
  if (!(await ws.tableExists(t.golden)) || !(await ws.tableExists(t.members))) return [];
  let sql: string;
  if (row.type === 'pattern') {
    const rec = (alias: string, m: string) =>
      `JOIN ${tableOf(t.records)} ${alias} ON ${alias}.system = ${m}.system AND ${alias}.record_id = ${m}.record_id`;
    sql =
      `SELECT DISTINCT m1.entity_id FROM ${tableOf(t.members)} m1 JOIN ${tableOf(t.members)} m2 ` +
      `ON m2.entity_id = m1.entity_id AND m1.uid < m2.uid ${rec('l', 'm1')} ${rec('r', 'm2')} ` +
      `WHERE coalesce(${patternSql(row.predicate!, 'l', 'r')}, FALSE) OR coalesce(${patternSql(row.predicate!, 'r', 'l')}, FALSE)`;
  } else {
    const values = row.members.flatMap((m, i) => m.records.map((r) => `(${i}, ${lit(uidOf(r))})`)).join(', ');
    sql =
      `SELECT DISTINCT g.entity_id FROM (VALUES ${values}) AS x(member, uid) JOIN (VALUES ${values}) AS y(member, uid) ` +
      `ON y.member > x.member JOIN ${tableOf(t.members)} g ON g.uid = x.uid JOIN ${tableOf(t.members)} h ` +
      `ON h.uid = y.uid AND h.entity_id = g.entity_id`;
  }
  const ids = (await ws.query(sql)).rows.map((r) => String(r.entity_id)).sort();
  if (!ids.length) return [];
  await ws.updateWhere(
    t.golden,
    { status: `'under_review'`, reviewable: 'TRUE', updated_at: `CAST(${lit(new Date().toISOString())} AS TIMESTAMP)` },
    `entity_id IN (${ids.map(lit).join(', ')}) AND status = 'active'`,
  );
  return ids;
}

async function requireRule(deps: AppDeps, id: string) {
  const row = await getNegativeMatchRule(deps.store.db, id);
  if (!row) throw notFound(`No negative-match rule ${id}`);
  return row;
}

export const ruleRoutes = [
  route({
    method: 'get',
    path: '/mdm/negative-match',
    summary: 'Negative-match rules, by entity type and status, with the merges each prevented',
    request: { query: NegativeMatchQuerySchema },
    response: { description: 'The rules', schema: z.array(NegativeMatchRuleSchema) },
    handler: async ({ deps, input: { query } }) =>
      (await listNegativeMatchRules(deps.store.db, { entityType: query.entity_type, status: query.status })).map(
        ruleView,
      ),
  }),
  route({
    method: 'post',
    path: '/mdm/negative-match',
    summary: 'Keep records apart: a pair, a group (all apart) or a pattern over a.<attribute> and b.<attribute>',
    role: 'steward',
    request: { body: NegativeMatchBodySchema },
    response: {
      status: 201,
      description: 'The rule, and the golden records it put under review',
      schema: NegativeMatchCreatedSchema,
    },
    errors: { 422: 'Unknown entity type, golden record or record; wrong members; a pattern outside the allow-list' },
    handler: async ({ deps, input: { body } }) => {
      const model = await requireModel(deps, body.entity_type, 'body.entity_type');
      checkBody(body, model);
      const members = body.type === 'pattern' ? [] : await resolveMembers(deps, model, body);
      const row = await createNegativeMatchRule(deps.store.db, {
        entityType: body.entity_type,
        type: body.type,
        members,
        predicate: body.type === 'pattern' ? body.predicate! : null,
        reason: body.reason,
        status: 'active',
        createdBy: actorOf(deps),
      });
      const underReview = await markUnderReview(deps, model, row);
      await recordMdmAudit(deps.store.db, {
        actor: actorOf(deps),
        action: 'negative_match_created',
        objectType: 'negative_match_rule',
        objectId: row.id,
        details: { type: row.type, under_review: underReview },
      });
      return { ...ruleView(row), under_review: underReview };
    },
  }),
  route({
    method: 'get',
    path: '/mdm/negative-match/:id',
    summary: 'One negative-match rule',
    request: { params: NegativeMatchIdParamsSchema },
    response: { description: 'The rule', schema: NegativeMatchRuleSchema },
    errors: { 404: 'No such rule' },
    handler: async ({ deps, input: { params } }) => ruleView(await requireRule(deps, params.id)),
  }),
  route({
    method: 'patch',
    path: '/mdm/negative-match/:id',
    summary: 'Turn a negative-match rule active or inactive (an inactive rule keeps nothing apart)',
    role: 'steward',
    request: { params: NegativeMatchIdParamsSchema, body: NegativeMatchPatchSchema },
    response: { description: 'The rule', schema: NegativeMatchRuleSchema },
    errors: { 404: 'No such rule' },
    handler: async ({ deps, input: { params, body } }) => {
      await requireRule(deps, params.id);
      const row = (await setNegativeMatchRuleStatus(deps.store.db, params.id, body.status))!;
      await recordMdmAudit(deps.store.db, {
        actor: actorOf(deps),
        action: `negative_match_${body.status}`,
        objectType: 'negative_match_rule',
        objectId: row.id,
      });
      return ruleView(row);
    },
  }),
  route({
    method: 'delete',
    path: '/mdm/negative-match/:id',
    summary: 'Delete a negative-match rule',
    request: { params: NegativeMatchIdParamsSchema },
    response: { description: 'Deleted', schema: z.object({ id: z.string(), deleted: z.literal(true) }) },
    errors: { 404: 'No such rule' },
    handler: async ({ deps, input: { params } }) => {
      if (!(await deleteNegativeMatchRule(deps.store.db, params.id)))
        throw notFound(`No negative-match rule ${params.id}`);
      await recordMdmAudit(deps.store.db, {
        actor: actorOf(deps),
        action: 'negative_match_deleted',
        objectType: 'negative_match_rule',
        objectId: params.id,
      });
      return { id: params.id, deleted: true as const };
    },
  }),
];
