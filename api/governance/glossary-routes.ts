import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { isPlatformError } from '../../platform/errors';
import { parseFqn } from '../../platform/identifiers';
import {
  GlossaryLinkSchema,
  GlossaryListQuerySchema,
  GlossaryTermCreateSchema,
  GlossaryTermDetailSchema,
  GlossaryTermPatchSchema,
  GlossaryTermSchema,
  TermIdParamsSchema,
  type GlossaryTerm,
} from '../../schemas/governance';
import {
  createTerm,
  deleteTerm,
  getTerm,
  historyOf,
  linkColumns,
  linksOf,
  listTerms,
  updateTerm,
  type GlossaryTermRow,
} from '../../store/governance/glossary';
import type { AppDeps } from '../deps';
import { currentCaller } from '../middleware/auth';
import { HttpError, conflict, notFound } from '../middleware/http-error';
import { defineRoutes, route } from '../middleware/route';

const G = '/governance/glossary';
const byId = { params: TermIdParamsSchema };

function termView(r: GlossaryTermRow, linked: string[]): GlossaryTerm {
  return {
    term_id: r.termId,
    name: r.name,
    abbreviation: r.abbreviation,
    definition: r.definition,
    domain: r.domain,
    owner: r.owner,
    tags: r.tags,
    status: r.status as GlossaryTerm['status'],
    linked_columns: linked,
    created_by: r.createdBy,
    created_at: r.createdAt.toISOString(),
    updated_by: r.updatedBy,
    updated_at: r.updatedAt.toISOString(),
  };
}

async function detail(deps: AppDeps, termId: string) {
  const row = await getTerm(deps.store.db, termId);
  if (!row) throw notFound(`No glossary term ${termId}`);
  const links = await linksOf(deps.store.db, [termId]);
  const history = (await historyOf(deps.store.db, termId)).map((h) => ({
    change_type: h.changeType,
    changed_by: h.changedBy,
    changed_at: h.changedAt.toISOString(),
    details: h.details,
  }));
  return { ...termView(row, links.get(termId) ?? []), history };
}

/** A status change allowed only from `from`: 404 for an unknown term, 409 naming its status otherwise. */
async function transition(deps: AppDeps, termId: string, from: string, to: string) {
  const row = await updateTerm(deps.store.db, termId, { status: to }, currentCaller().name, to, from);
  if (row) return detail(deps, termId);
  const current = await getTerm(deps.store.db, termId);
  if (!current) throw notFound(`No glossary term ${termId}`);
  throw conflict(`Glossary term ${termId} is ${current.status}; only a ${from} term can become ${to}`);
}

/** Every linked column must exist in the configured workspace (404 naming it). */
async function assertColumnsExist(deps: AppDeps, columns: string[]) {
  const ws = await deps.workspaces.default();
  const byTable = new Map<string, string[]>();
  for (const c of columns) {
    const at = c.lastIndexOf('.');
    byTable.set(c.slice(0, at), [...(byTable.get(c.slice(0, at)) ?? []), c.slice(at + 1)]);
  }
  for (const [table, cols] of byTable) {
    const described = await ws.describeTable(parseFqn(table)).catch((err: unknown) => {
      if (isPlatformError(err) && err.code === 'NOT_FOUND') return null;
      throw err;
    });
    const have = new Set(described?.columns.map((c) => c.name.toLowerCase()) ?? []);
    const missing = cols.filter((c) => !have.has(c.toLowerCase()));
    if (missing.length) {
      const path = `body.column_fqns.${columns.indexOf(`${table}.${missing[0]}`)}`;
      const message = described ? `no column ${missing[0]} in ${table}` : `no table ${table}`;
      throw new HttpError(404, 'NOT_FOUND', message, [{ path, message }]);
    }
  }
}

/**
 * The business glossary (`/governance/glossary`, also under `/api`): terms with draft → approved → deprecated
 * (approve and deprecate: steward; delete: admin), links to columns, and every change in the term's history.
 */
export const glossaryRoutes = defineRoutes({
  name: 'glossary',
  tags: ['glossary'],
  mounts: ['/api', '/'],
  routes: [
    route({
      method: 'get',
      path: G,
      summary: 'Glossary terms by name (filter by status, domain, text)',
      request: { query: GlossaryListQuerySchema },
      response: { description: 'Terms', schema: z.array(GlossaryTermSchema) },
      handler: async ({ deps, input: { query } }) => {
        const rows = await listTerms(deps.store.db, query);
        const links = await linksOf(
          deps.store.db,
          rows.map((r) => r.termId),
        );
        return rows.map((r) => termView(r, links.get(r.termId) ?? []));
      },
    }),
    route({
      method: 'post',
      path: G,
      summary: 'Create a glossary term (status draft)',
      request: { body: GlossaryTermCreateSchema },
      response: { status: 201, description: 'The term', schema: GlossaryTermDetailSchema },
      handler: async ({ deps, input: { body } }) => {
        const by = currentCaller().name;
        const row = await createTerm(deps.store.db, {
          termId: randomUUID().replace(/-/g, '').slice(0, 12),
          name: body.name,
          definition: body.definition,
          abbreviation: body.abbreviation ?? null,
          domain: body.domain,
          owner: body.owner ?? null,
          tags: body.tags,
          status: 'draft',
          createdBy: by,
          updatedBy: by,
        });
        return detail(deps, row.termId);
      },
    }),
    route({
      method: 'get',
      path: `${G}/:term_id`,
      summary: 'A glossary term with its linked columns and change history',
      request: byId,
      response: { description: 'The term', schema: GlossaryTermDetailSchema },
      errors: { 404: 'No such term' },
      handler: ({ deps, input: { params } }) => detail(deps, params.term_id),
    }),
    route({
      method: 'patch',
      path: `${G}/:term_id`,
      summary: 'Change a term’s fields (status changes through approve and deprecate)',
      request: { ...byId, body: GlossaryTermPatchSchema },
      response: { description: 'The term', schema: GlossaryTermDetailSchema },
      errors: { 404: 'No such term' },
      handler: async ({ deps, input: { params, body } }) => {
        const row = await updateTerm(deps.store.db, params.term_id, body, currentCaller().name, 'updated');
        if (!row) throw notFound(`No glossary term ${params.term_id}`);
        return detail(deps, params.term_id);
      },
    }),
    route({
      method: 'delete',
      path: `${G}/:term_id`,
      summary: 'Delete a term and its links (admin); its history is kept',
      request: byId,
      response: { description: 'Deleted', schema: z.object({ term_id: z.string(), deleted: z.literal(true) }) },
      errors: { 404: 'No such term' },
      handler: async ({ deps, input: { params } }) => {
        const gone = await deleteTerm(deps.store.db, params.term_id, currentCaller().name);
        if (!gone) throw notFound(`No glossary term ${params.term_id}`);
        return { term_id: gone.termId, deleted: true as const };
      },
    }),
    route({
      method: 'post',
      path: `${G}/:term_id/approve`,
      summary: 'Approve a draft term (steward)',
      role: 'steward',
      request: byId,
      response: { description: 'The term', schema: GlossaryTermDetailSchema },
      errors: { 404: 'No such term', 409: 'The term is not a draft' },
      handler: ({ deps, input: { params } }) => transition(deps, params.term_id, 'draft', 'approved'),
    }),
    route({
      method: 'post',
      path: `${G}/:term_id/deprecate`,
      summary: 'Deprecate an approved term (steward)',
      role: 'steward',
      request: byId,
      response: { description: 'The term', schema: GlossaryTermDetailSchema },
      errors: { 404: 'No such term', 409: 'The term is not approved' },
      handler: ({ deps, input: { params } }) => transition(deps, params.term_id, 'approved', 'deprecated'),
    }),
    route({
      method: 'post',
      path: `${G}/:term_id/links`,
      summary: 'Link columns (catalog.schema.table.column, each must exist) to a term',
      request: { ...byId, body: GlossaryLinkSchema },
      response: { description: 'The term', schema: GlossaryTermDetailSchema },
      errors: { 404: 'No such term, table or column' },
      handler: async ({ deps, input: { params, body } }) => {
        if (!(await getTerm(deps.store.db, params.term_id))) throw notFound(`No glossary term ${params.term_id}`);
        await assertColumnsExist(deps, body.column_fqns);
        await linkColumns(deps.store.db, params.term_id, body.column_fqns, currentCaller().name);
        return detail(deps, params.term_id);
      },
    }),
  ],
});
