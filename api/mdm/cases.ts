import { z } from 'zod';
import { slaDueAt } from '../../activities/mdm/logic/sla';
import {
  CaseCreateSchema,
  CaseListQuerySchema,
  CaseParamsSchema,
  CaseViewSchema,
  ReassignBodySchema,
  ResolveBodySchema,
  ResolveResultSchema,
  EntityOverrideBodySchema,
  EntityOverrideResultSchema,
  EntityOverrideParamsSchema,
} from '../../schemas/mdm-steward';
import {
  deleteCase,
  getCase,
  getCaseByKey,
  listCases,
  openCases,
  recordKey,
  resolveCase,
  updateCase,
} from '../../store/mdm/cases';
import { recordMdmAudit } from '../../store/mdm/repo';
import { callerOf } from '../middleware/auth';
import { HttpError, notFound } from '../middleware/http-error';
import { route } from '../middleware/route';
import { applyResolution, calendarOf, caseView, checkAction, overrideEntity } from './cases-service';
import { mdmWorkspace } from './service';

const conflict = (message: string, path: string) =>
  new HttpError(409, 'CONFLICT', message, [{ path, message: 'already resolved' }]);

/**
 * Stewardship cases (`/mdm/stewardship`): opened by match runs (or a steward), listed with their SLA state,
 * resolved by a steward (approve_match, reject, override, close), reassigned by a steward, deleted by an admin.
 */
export const caseRoutes = [
  route({
    method: 'get',
    path: '/mdm/stewardship',
    summary: 'Stewardship cases, soonest due first (assigned_to=me: the caller’s key name)',
    request: { query: CaseListQuerySchema },
    response: { description: 'Cases with their SLA state', schema: z.array(CaseViewSchema) },
    handler: async ({ deps, input: { query }, req }) => {
      const assignedTo = query.assigned_to === 'me' ? callerOf(req).name : query.assigned_to;
      const rows = await listCases(deps.store.db, {
        entityType: query.entity_type,
        type: query.type,
        status: query.status,
        assignedTo,
      });
      const cal = calendarOf(deps);
      const now = new Date();
      const views = rows.map((r) => caseView(r, cal, now));
      return query.sla_state ? views.filter((v) => v.sla_state === query.sla_state) : views;
    },
  }),
  route({
    method: 'post',
    path: '/mdm/stewardship',
    summary: 'Open a case by hand (a stewardship request, say); the same type and records open one case only',
    role: 'steward',
    request: { body: CaseCreateSchema },
    response: { status: 201, description: 'The case', schema: CaseViewSchema },
    otherResponses: {
      200: { description: 'The case with this type and records existed already', schema: CaseViewSchema },
    },
    handler: async ({ deps, input: { body }, req, res }) => {
      const { opened } = await openCases(deps.store.db, [body], slaDueAt(deps.config.mdm.sla_calendar));
      const row = await getCaseByKey(deps.store.db, body.type, body.records);
      if (!row) throw notFound('The case vanished');
      if (opened.length)
        await recordMdmAudit(deps.store.db, {
          actor: callerOf(req).name,
          action: 'case_opened',
          objectType: 'case',
          objectId: row.id,
        });
      res.status(opened.length ? 201 : 200);
      return caseView(row, calendarOf(deps), new Date());
    },
  }),
  route({
    method: 'get',
    path: '/mdm/stewardship/:case_id',
    summary: 'One stewardship case',
    request: { params: CaseParamsSchema },
    response: { description: 'The case', schema: CaseViewSchema },
    errors: { 404: 'No such case' },
    handler: async ({ deps, input: { params } }) => {
      const row = await getCase(deps.store.db, params.case_id);
      if (!row) throw notFound(`No stewardship case ${params.case_id}`);
      return caseView(row, calendarOf(deps), new Date());
    },
  }),
  route({
    method: 'post',
    path: '/mdm/stewardship/:case_id/resolve',
    summary:
      'Resolve a case (steward): approve_match merges now and remembers a must-link; reject splits now and ' +
      'remembers a cannot-link (flag_negative_match adds a pair rule); override sets attribute values that win ' +
      'on every later run',
    role: 'steward',
    request: { params: CaseParamsSchema, body: ResolveBodySchema },
    response: { description: 'The resolved case and what it changed', schema: ResolveResultSchema },
    errors: {
      404: 'No such case',
      409: 'The case is resolved already',
      422: 'The case type does not take this action, or an override names no or unknown attributes',
    },
    handler: async ({ deps, input: { params, body }, req }) => {
      const db = deps.store.db;
      const row = await getCase(db, params.case_id);
      if (!row) throw notFound(`No stewardship case ${params.case_id}`);
      if (row.status !== 'open') throw conflict(`Case ${row.id} is resolved already`, 'params.case_id');
      checkAction(row, body);
      const actor = callerOf(req).name;
      const now = new Date();
      const resolution = {
        action: body.action,
        notes: body.notes ?? null,
        attribute_overrides: body.attribute_overrides ?? null,
      };
      const claimed = await resolveCase(db, row.id, actor, resolution, now);
      if (!claimed) throw conflict(`Case ${row.id} is resolved already`, 'params.case_id');
      let effect;
      try {
        effect = await applyResolution(deps, await mdmWorkspace(deps), row, body, actor, now);
      } catch (err) {
        await updateCase(db, row.id, { status: 'open', resolvedAt: null, resolvedBy: null, resolution: null });
        throw err;
      }
      const done = await updateCase(db, row.id, { resolution: { ...resolution, effect } });
      await recordMdmAudit(db, {
        actor,
        action: `case_${body.action}`,
        objectType: 'case',
        objectId: row.id,
        details: { ...effect, records: row.records.map(recordKey) },
      });
      return { ...caseView(done, calendarOf(deps), now), effect };
    },
  }),
  route({
    method: 'post',
    path: '/mdm/stewardship/:case_id/reassign',
    summary: 'Assign a case to a steward (by key name)',
    role: 'steward',
    request: { params: CaseParamsSchema, body: ReassignBodySchema },
    response: { description: 'The case', schema: CaseViewSchema },
    errors: { 404: 'No such case', 409: 'The case is resolved already' },
    handler: async ({ deps, input: { params, body }, req }) => {
      const row = await getCase(deps.store.db, params.case_id);
      if (!row) throw notFound(`No stewardship case ${params.case_id}`);
      if (row.status !== 'open') throw conflict(`Case ${row.id} is resolved already`, 'params.case_id');
      const updated = await updateCase(deps.store.db, row.id, { assignedTo: body.to });
      await recordMdmAudit(deps.store.db, {
        actor: callerOf(req).name,
        action: 'case_reassigned',
        objectType: 'case',
        objectId: row.id,
        details: { from: row.assignedTo, to: body.to },
      });
      return caseView(updated, calendarOf(deps), new Date());
    },
  }),
  route({
    method: 'delete',
    path: '/mdm/stewardship/:case_id',
    summary: 'Delete a case (admin); its decisions stay',
    request: { params: CaseParamsSchema },
    response: { description: 'Deleted', schema: z.object({ case_id: z.string(), deleted: z.literal(true) }) },
    errors: { 404: 'No such case' },
    handler: async ({ deps, input: { params }, req }) => {
      if (!(await deleteCase(deps.store.db, params.case_id))) throw notFound(`No stewardship case ${params.case_id}`);
      await recordMdmAudit(deps.store.db, {
        actor: callerOf(req).name,
        action: 'case_deleted',
        objectType: 'case',
        objectId: params.case_id,
      });
      return { case_id: params.case_id, deleted: true as const };
    },
  }),
  route({
    method: 'post',
    path: '/mdm/entities/:entity_id/overrides',
    summary:
      "Override a golden record's attributes (steward): written now with provenance steward, and winning over " +
      'survivorship on every later run',
    role: 'steward',
    request: { params: EntityOverrideParamsSchema, body: EntityOverrideBodySchema },
    response: { description: 'What was overridden', schema: EntityOverrideResultSchema },
    errors: { 404: 'No such golden record', 422: 'An attribute the entity type does not have' },
    handler: async ({ deps, input: { params, body }, req }) => {
      const actor = callerOf(req).name;
      const done = await overrideEntity(deps, params.entity_id, body.attributes, actor);
      if (!done) throw notFound(`No golden record ${params.entity_id}`);
      await recordMdmAudit(deps.store.db, {
        actor,
        action: 'golden_override',
        objectType: 'golden_record',
        objectId: params.entity_id,
        details: { attributes: done.attributes },
      });
      return { entity_id: params.entity_id, ...done };
    },
  }),
];
