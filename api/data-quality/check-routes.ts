import { z } from 'zod';
import { CHECK_FUNCTIONS } from '../../activities/data-quality/logic';
import {
  AuditEntrySchema,
  AuditQuerySchema,
  BulkDeleteSchema,
  CheckCreateSchema,
  CheckFunctionSchema,
  CheckIdParamsSchema,
  CheckListQuerySchema,
  CheckSchema,
  CheckUpdateSchema,
  ToggleBodySchema,
} from '../../schemas/data-quality';
import {
  auditLog,
  deleteCheck,
  deleteChecksBulk,
  getCheck,
  listChecks,
  setCheckEnabled,
} from '../../store/data-quality/checks';
import { HttpError } from '../middleware/http-error';
import { route } from '../middleware/route';
import { actorOf, capabilitiesOf, changeCheck, checkView, createChecks, dqWorkspace } from './checks-service';

const G = '/governance/dqx';
const DeletedSchema = z.object({ deleted: z.number(), check_ids: z.array(z.string()) });

/** DQX checks: CRUD, toggle, bulk delete, the audit log and the function catalog. */
export const checkRoutes = [
  route({
    method: 'get',
    path: `${G}/check-functions`,
    summary: 'The DQX check functions: name, category, level (row or dataset), description, arguments',
    response: { description: 'Functions', schema: z.array(CheckFunctionSchema) },
    handler: async ({ deps }) => {
      const ws = await dqWorkspace(deps).catch(() => null);
      const caps = ws ? capabilitiesOf(ws) : { spatial: false };
      return CHECK_FUNCTIONS.map((f) => {
        const missing = (f.needs ?? []).filter((n) => n !== 'spatial' || !caps.spatial);
        return {
          name: f.name,
          category: f.category,
          level: f.level,
          description: f.description,
          args: f.args.map((a) => ({ name: a.name, type: a.type, required: a.required, description: a.description })),
          available: missing.length === 0,
          unavailable_reason: missing.length
            ? `needs ${missing.map((m) => (m === 'spatial' ? 'spatial SQL functions' : 'a row-anomaly model')).join(' and ')}, which this workspace lacks`
            : null,
        };
      });
    },
  }),
  route({
    method: 'post',
    path: `${G}/checks`,
    summary: 'Create a check (for_each_column creates one per column); validated against the table',
    request: { body: CheckCreateSchema },
    response: { status: 201, description: 'The created checks', schema: z.array(CheckSchema) },
    errors: { 404: 'The table does not exist', 422: 'Unknown function, argument or column (details name it)' },
    handler: async ({ deps, input }) => (await createChecks(deps, input.body)).map(checkView),
  }),
  route({
    method: 'get',
    path: `${G}/checks`,
    summary: 'List checks, optionally of one table',
    request: { query: CheckListQuerySchema },
    response: { description: 'Checks', schema: z.array(CheckSchema) },
    handler: async ({ deps, input: { query: q } }) =>
      (await listChecks(deps.store.db, { tableFqn: q.table_fqn, limit: q.limit, offset: q.offset })).map(checkView),
  }),
  route({
    method: 'get',
    path: `${G}/checks/audit-log`,
    summary: 'Audit entries of a check or a table, newest first',
    request: { query: AuditQuerySchema },
    response: { description: 'Entries', schema: z.array(AuditEntrySchema) },
    handler: async ({ deps, input: { query: q } }) =>
      (
        await auditLog(deps.store.db, { checkId: q.check_id, tableFqn: q.table_fqn, limit: q.limit, offset: q.offset })
      ).map((a) => ({
        audit_id: String(a.auditId),
        check_id: a.checkId,
        table_fqn: a.tableFqn,
        action: a.action as z.infer<typeof AuditEntrySchema>['action'],
        changes: JSON.stringify(a.changes),
        performed_by: a.performedBy,
        performed_at: a.performedAt.toISOString(),
      })),
  }),
  route({
    method: 'post',
    path: `${G}/checks/delete-bulk`,
    summary: 'Delete checks by ids, by table or all (one bulk_delete audit entry per check)',
    role: 'admin',
    request: { body: BulkDeleteSchema },
    response: { description: 'Deleted', schema: DeletedSchema },
    handler: async ({ deps, input: { body } }) => {
      const scope = body.check_ids
        ? { checkIds: body.check_ids }
        : body.table_fqn
          ? { tableFqn: body.table_fqn }
          : { all: true as const };
      const rows = await deleteChecksBulk(deps.store.db, scope, actorOf(deps));
      return { deleted: rows.length, check_ids: rows.map((r) => r.checkId) };
    },
  }),
  route({
    method: 'get',
    path: `${G}/checks/:id`,
    summary: 'One check',
    request: { params: CheckIdParamsSchema },
    response: { description: 'The check', schema: CheckSchema },
    errors: { 404: 'No such check' },
    handler: async ({ deps, input: { params } }) => {
      const row = await getCheck(deps.store.db, params.id);
      if (!row) throw notFoundCheck(params.id);
      return checkView(row);
    },
  }),
  route({
    method: 'put',
    path: `${G}/checks/:id`,
    summary: 'Update a check (name, function, arguments, criticality, filter, user_metadata); validated again',
    request: { params: CheckIdParamsSchema, body: CheckUpdateSchema },
    response: { description: 'The updated check', schema: CheckSchema },
    errors: { 404: 'No such check', 422: 'Unknown function, argument or column (details name it)' },
    handler: async ({ deps, input }) => checkView(await changeCheck(deps, input.params.id, input.body)),
  }),
  route({
    method: 'delete',
    path: `${G}/checks/:id`,
    summary: 'Delete a check',
    request: { params: CheckIdParamsSchema },
    response: { description: 'Deleted', schema: DeletedSchema },
    errors: { 404: 'No such check' },
    handler: async ({ deps, input: { params } }) => {
      const row = await deleteCheck(deps.store.db, params.id, actorOf(deps));
      if (!row) throw notFoundCheck(params.id);
      return { deleted: 1, check_ids: [row.checkId] };
    },
  }),
  route({
    method: 'post',
    path: `${G}/checks/:id/toggle`,
    summary: 'Enable or disable a check (without a body: flip it)',
    request: { params: CheckIdParamsSchema, body: ToggleBodySchema },
    response: { description: 'The check', schema: CheckSchema },
    errors: { 404: 'No such check' },
    handler: async ({ deps, input: { params, body } }) => {
      const current = await getCheck(deps.store.db, params.id);
      if (!current) throw notFoundCheck(params.id);
      const enabled = body.enabled ?? !current.enabled;
      const row = await setCheckEnabled(deps.store.db, params.id, enabled, actorOf(deps));
      if (!row) throw notFoundCheck(params.id);
      return checkView(row);
    },
  }),
];

function notFoundCheck(id: string) {
  return new HttpError(404, 'NOT_FOUND', `No check ${id}`, [{ path: 'params.id', message: 'no such check' }]);
}
