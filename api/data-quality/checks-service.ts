import { randomUUID } from 'node:crypto';
import {
  normalizeCheck,
  type Capabilities,
  type CheckIssue,
  type DqCheck,
  type TableShape,
} from '../../activities/data-quality/logic';
import { parseFqn } from '../../platform/identifiers';
import type { Workspace } from '../../platform/port';
import type { CheckCreate, CheckUpdate, CheckView } from '../../schemas/data-quality';
import {
  getCheck,
  insertChecks,
  updateCheck,
  type CheckPatch,
  type DqCheckRow,
  type NewDqCheckRow,
} from '../../store/data-quality/checks';
import type { AppDeps } from '../deps';
import { guardCheckSql } from '../governance/check-access';
import { currentCaller } from '../middleware/auth';
import { HttpError, notFound } from '../middleware/http-error';

/**
 * Who did it, for the check audit log: the calling API key's name (`api_server.keys[].name`; the single
 * `api_key` is named after its environment variable, or `api_key`), `anonymous` when authentication is off.
 */
export function actorOf(_deps?: AppDeps): string {
  return currentCaller().name;
}

/** The workspace data-quality work runs on: the configured one (the worker runs there too). */
export function dqWorkspace(deps: AppDeps): Promise<Workspace> {
  return deps.workspaces.default();
}

/** What the workspace's SQL engine can do: geometry functions only on Databricks. */
export function capabilitiesOf(ws: Workspace): Capabilities {
  return { spatial: ws.kind === 'databricks' };
}

/** The table's columns (404 when the table does not exist). */
export async function tableShape(ws: Workspace, tableFqn: string): Promise<TableShape> {
  const d = await ws.describeTable(parseFqn(tableFqn));
  return { columns: d.columns.map((c) => ({ name: c.name, type: c.type })) };
}

/** 400 for a malformed field, 422 for one that does not fit the table or workspace; details name each field. */
export function issuesError(issues: CheckIssue[], prefix = 'body'): HttpError {
  const status = issues.some((i) => i.status === 400) ? 400 : 422;
  const code = status === 400 ? 'VALIDATION_ERROR' : 'INVALID_CHECK';
  const details = issues.map((i) => ({ path: i.path ? `${prefix}.${i.path}` : prefix, message: i.message }));
  return new HttpError(
    status,
    code,
    `Invalid check: ${details.map((d) => `${d.path}: ${d.message}`).join('; ')}`,
    details,
  );
}

export function checkView(r: DqCheckRow): CheckView {
  return {
    id: r.checkId,
    check_id: r.checkId,
    table_fqn: r.tableFqn,
    name: r.name,
    check_function: r.checkFunction,
    arguments: r.arguments,
    criticality: r.criticality === 'warn' ? 'warn' : 'error',
    enabled: r.enabled,
    filter: r.filterExpr ?? null,
    user_metadata: r.userMetadata ?? null,
    created_by: r.createdBy,
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
  };
}

export const newCheckId = () => randomUUID().replace(/-/g, '').slice(0, 12);

export function checkRow(c: DqCheck, createdBy: string): NewDqCheckRow {
  return {
    checkId: c.id ?? newCheckId(),
    tableFqn: c.table_fqn,
    name: c.name,
    checkFunction: c.check_function,
    arguments: c.arguments,
    criticality: c.criticality,
    enabled: c.enabled,
    filterExpr: c.filter && c.filter.trim() !== '' ? c.filter : null,
    userMetadata: (c.user_metadata as Record<string, string> | null | undefined) ?? null,
    createdBy,
  };
}

/** Validates against the catalog, the table's columns and the workspace, then stores (one row per column). */
export async function createChecks(deps: AppDeps, body: CheckCreate): Promise<DqCheckRow[]> {
  const ws = await dqWorkspace(deps);
  const shape = await tableShape(ws, body.table_fqn);
  const result = normalizeCheck(body, shape, capabilitiesOf(ws));
  if (!result.ok) throw issuesError(result.issues);
  for (const c of result.check) await guardCheckSql(deps, currentCaller(), c); // user SQL vs access policies: 403
  const by = actorOf(deps);
  return insertChecks(
    deps.store.db,
    result.check.map((c) => checkRow(c, by)),
    by,
  );
}

/** Merges the change into the stored check, validates the whole check again, and stores it. */
export async function changeCheck(deps: AppDeps, id: string, patch: CheckUpdate): Promise<DqCheckRow> {
  const current = await getCheck(deps.store.db, id);
  if (!current) throw notFound(`No check ${id}`);
  const filter = patch.filter !== undefined ? patch.filter : patch.filter_expr;
  const merged = {
    table_fqn: current.tableFqn,
    name: patch.name ?? current.name,
    check_function: patch.check_function ?? current.checkFunction,
    arguments: patch.arguments ?? current.arguments,
    criticality: patch.criticality ?? current.criticality,
    enabled: current.enabled,
    filter: filter !== undefined ? filter : current.filterExpr,
    user_metadata: patch.user_metadata !== undefined ? patch.user_metadata : current.userMetadata,
  };
  const ws = await dqWorkspace(deps);
  const result = normalizeCheck(merged, await tableShape(ws, current.tableFqn), capabilitiesOf(ws));
  if (!result.ok) throw issuesError(result.issues);
  if (result.check.length !== 1) throw issuesError([{ path: 'arguments', message: 'one check expected', status: 400 }]);
  const [c] = result.check;
  await guardCheckSql(deps, currentCaller(), c);
  const change: CheckPatch = {
    name: c.name,
    criticality: c.criticality,
    checkFunction: c.check_function,
    arguments: c.arguments,
    filterExpr: c.filter && c.filter.trim() !== '' ? c.filter : null,
    userMetadata: (c.user_metadata as Record<string, string> | null | undefined) ?? null,
  };
  const updated = await updateCheck(deps.store.db, id, change, actorOf(deps));
  if (!updated) throw notFound(`No check ${id}`);
  return updated;
}
