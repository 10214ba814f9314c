import { parse as parseYaml } from 'yaml';
import type { z } from 'zod';
import { parseFqn } from '../../platform/identifiers';
import type { Workspace } from '../../platform/port';
import type { Caller } from '../../schemas/governance';
import { MdmModelSchema, SourceSchema, type MdmModel, type MdmSource } from '../../schemas/mdm';
import { getModel, type MdmModelRow, type MdmSourceRow } from '../../store/mdm/repo';
import { actorOf } from '../data-quality/checks-service';
import type { AppDeps } from '../deps';
import { assertAllowed } from '../governance/access';
import { HttpError, notFound } from '../middleware/http-error';

export { actorOf };

/** The workspace MDM works on: the configured one (the worker runs there too). */
export function mdmWorkspace(deps: AppDeps): Promise<Workspace> {
  return deps.workspaces.default();
}

/** 422 listing each problem with its path under `prefix` (`body.attributes.dob.kind: …`). */
export function invalid(code: string, what: string, issues: { path: string; message: string }[]): HttpError {
  return new HttpError(422, code, `${what}: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`, issues);
}

function zodIssues(error: z.ZodError, prefix: string) {
  return error.issues.map((i) => ({ path: [prefix, ...i.path.map(String)].join('.'), message: i.message }));
}

/** A PUT body (the model as JSON, or `{yaml}`) as a validated model; a 422 names the path of every problem. */
export function parseModelBody(body: Record<string, unknown>, entityType: string): MdmModel {
  let raw: unknown = body;
  if (typeof body.yaml === 'string' && Object.keys(body).length === 1) {
    try {
      raw = parseYaml(body.yaml);
    } catch (err) {
      throw invalid('INVALID_MODEL', 'The model is not valid YAML', [
        { path: 'body.yaml', message: (err as Error).message.split('\n')[0] },
      ]);
    }
  }
  if (raw && typeof raw === 'object' && !Array.isArray(raw) && !('entity_type' in raw))
    raw = { ...(raw as object), entity_type: entityType };
  const result = MdmModelSchema.safeParse(raw);
  if (!result.success) throw invalid('INVALID_MODEL', 'Invalid model', zodIssues(result.error, 'body'));
  if (result.data.entity_type !== entityType)
    throw invalid('INVALID_MODEL', 'Invalid model', [
      { path: 'body.entity_type', message: `must equal the path's entity type '${entityType}'` },
    ]);
  return result.data;
}

export function modelOf(row: MdmModelRow): MdmModel {
  return MdmModelSchema.parse(row.definition);
}

export async function requireModel(deps: AppDeps, entityType: string, path = 'params.entity_type'): Promise<MdmModel> {
  const row = await getModel(deps.store.db, entityType);
  if (!row) {
    if (path.startsWith('params')) throw notFound(`No MDM model for entity type ${entityType}`);
    throw invalid('UNKNOWN_ENTITY_TYPE', 'Unknown entity type', [
      { path, message: `no model for entity type '${entityType}': PUT /api/mdm/models/${entityType} first` },
    ]);
  }
  return modelOf(row);
}

export function sourceOf(row: MdmSourceRow): MdmSource {
  return SourceSchema.parse({
    system: row.system,
    entity_type: row.entityType,
    table_fqn: row.tableFqn,
    key_column: row.keyColumn,
    columns: row.columns,
    trust: row.trust,
    updated_at_column: row.updatedAtColumn,
  });
}

export function sourceView(row: MdmSourceRow) {
  return { ...sourceOf(row), created_at: row.createdAt.toISOString(), updated_at: row.updatedAt.toISOString() };
}

/**
 * A source must fit its model and its table: a known entity type, mapped attributes of the model, and a table
 * that exists with the key, mapped and updated-at columns. Every problem is a 422 detail naming its field.
 */
export async function checkSource(deps: AppDeps, source: MdmSource): Promise<void> {
  const model = await requireModel(deps, source.entity_type, 'body.entity_type');
  const issues: { path: string; message: string }[] = [];
  for (const attr of Object.keys(source.columns))
    if (!(attr in model.attributes))
      issues.push({ path: `body.columns.${attr}`, message: `'${attr}' is not an attribute of ${source.entity_type}` });
  if (Object.keys(source.columns).length === 0)
    issues.push({ path: 'body.columns', message: 'map at least one attribute to a column' });
  const ws = await mdmWorkspace(deps);
  const ref = parseFqn(source.table_fqn);
  if (!(await ws.tableExists(ref))) {
    issues.push({ path: 'body.table_fqn', message: `table ${source.table_fqn} not found` });
  } else {
    const columns = new Set((await ws.describeTable(ref)).columns.map((c) => c.name));
    const has = (c: string, path: string) => {
      if (!columns.has(c)) issues.push({ path, message: `${source.table_fqn} has no column '${c}'` });
    };
    has(source.key_column, 'body.key_column');
    for (const [attr, col] of Object.entries(source.columns))
      if (attr in model.attributes) has(col, `body.columns.${attr}`);
    if (source.updated_at_column) has(source.updated_at_column, 'body.updated_at_column');
  }
  if (issues.length) throw invalid('INVALID_SOURCE', 'Invalid source', issues);
}

/** Ingest and match write the MDM catalog: the access policies are asked before anything is queued (403 naming the rule). */
export async function assertMdmWrite(deps: AppDeps, caller: Caller): Promise<void> {
  await assertAllowed(deps, caller, { operation: 'write', destination: deps.config.mdm.catalog }, 'body.entity_type');
}
