import { safetyLog } from '../post-clone/log';
import type { Workspace } from '../../../platform/port';
import type { Securable } from '../../../platform/types';
import type { CloneOptions } from '../../../schemas/clone';
import {
  jobsWithUnrestoredGrants,
  markQuiesceGrants,
  quiesceGrantsForJob,
  recordQuiesceGrant,
} from '../../../store/clone/quiesce-grants';
import type { WorkspaceRef } from '../../../workflows/clone/definitions';
import { chooseSchemas, selectionFor } from '../selection';
import type { SafetyDeps } from '../rollback/activities';

/** Schema-level privileges that let a principal change a schema's data or objects (ALL PRIVILEGES too: below). */
export const WRITE_PRIVILEGES = [
  'MODIFY',
  'WRITE_VOLUME',
  'CREATE_TABLE',
  'CREATE_VOLUME',
  'CREATE_FUNCTION',
  'CREATE_MATERIALIZED_VIEW',
  'CREATE_MODEL',
  'APPLY_TAG',
];
/**
 * Schema privileges a principal whose ALL PRIVILEGES is revoked keeps while the source is quiesced (reading goes
 * on; only writing stops). Those it did not hold on their own are revoked again when ALL PRIVILEGES comes back.
 */
export const READ_PRIVILEGES = ['USE SCHEMA', 'SELECT', 'EXECUTE', 'READ VOLUME'];
const norm = (p: string) => p.toUpperCase().replace(/\s+/g, '_');
const isWrite = (p: string) => WRITE_PRIVILEGES.includes(norm(p));
const isAll = (p: string) => norm(p) === 'ALL_PRIVILEGES';

/**
 * What quiescing one principal's schema grant changes. Revoking ALL PRIVILEGES takes every privilege with it
 * (in Unity Catalog and in the local lakehouse), so such a principal is revoked everything it held, given back
 * the read privileges meanwhile, and granted exactly its old list on restore.
 */
export function quiescePlan(held: string[]): { revoke: string[]; interim: string[]; keep: string[] } {
  if (!held.some(isAll)) return { revoke: held.filter(isWrite), interim: [], keep: [] };
  const keep = held.filter((p) => !isWrite(p) && !isAll(p));
  const interim = READ_PRIVILEGES.filter((r) => !held.some((p) => norm(p) === norm(r)));
  return { revoke: [...held], interim, keep: [...keep, ...interim] };
}

export interface QuiesceInput {
  jobId: string;
  workspace: WorkspaceRef;
  options: Pick<
    CloneOptions,
    | 'source_catalog'
    | 'include_schemas'
    | 'exclude_schemas'
    | 'include_objects'
    | 'include_tables_regex'
    | 'exclude_tables_regex'
  >;
}

export interface QuiescedGrant {
  schema: string;
  principal: string;
  privileges: string[];
}

const schemaSecurable = (catalog: string, schema: string): Securable => ({ type: 'SCHEMA', catalog, schema });

async function revokeSchema(
  deps: SafetyDeps,
  ws: Workspace,
  input: QuiesceInput,
  schema: string,
): Promise<QuiescedGrant[]> {
  const catalog = input.options.source_catalog;
  const s = schemaSecurable(catalog, schema);
  const out: QuiescedGrant[] = [];
  for (const g of await ws.getGrants(s)) {
    const plan = quiescePlan(g.privileges);
    const privileges = plan.revoke;
    if (privileges.length === 0) continue;
    // Record first: if this worker dies after the revoke, the record is what gets the grant back.
    await recordQuiesceGrant(deps.db, {
      jobId: input.jobId,
      catalog,
      schemaName: schema,
      principal: g.principal,
      privileges,
      interimPrivileges: plan.interim,
      workspace: input.workspace as unknown as Record<string, unknown>,
    });
    await ws.revoke(s, g.principal, privileges);
    if (plan.keep.length > 0) await ws.grant(s, g.principal, plan.keep);
    await markQuiesceGrants(deps.db, input.jobId, [{ catalog, schemaName: schema, principal: g.principal }], 'revoked');
    out.push({ schema, principal: g.principal, privileges });
  }
  return out;
}

/**
 * Re-grants exactly what the job revoked; idempotent (granting a held privilege changes nothing, revoking an
 * interim privilege no longer held neither).
 */
export async function restoreQuiescedGrants(deps: SafetyDeps, jobId: string): Promise<QuiescedGrant[]> {
  const rows = (await quiesceGrantsForJob(deps.db, jobId)).filter((r) => r.status !== 'restored');
  const restored: QuiescedGrant[] = [];
  for (const r of rows) {
    const ws = await deps.resolveWorkspace(r.workspace as unknown as WorkspaceRef);
    const s = schemaSecurable(r.catalog, r.schemaName);
    // The read privileges lent for the quiesce go first, so ALL PRIVILEGES comes back alone, as it was held.
    if (r.interimPrivileges.length > 0) await ws.revoke(s, r.principal, r.interimPrivileges);
    await ws.grant(s, r.principal, r.privileges);
    await markQuiesceGrants(deps.db, jobId, [r], 'restored');
    restored.push({ schema: r.schemaName, principal: r.principal, privileges: r.privileges });
  }
  if (restored.length) safetyLog('info', 'quiesce released', { jobId, grants: restored.length });
  return restored;
}

export function createQuiesceActivities(deps: SafetyDeps) {
  return {
    /**
     * Revokes write privileges on the selected source schemas. A retry first gives back whatever an
     * earlier attempt recorded, then starts over, so nothing is revoked without a record.
     */
    async quiesceSource(input: QuiesceInput): Promise<QuiescedGrant[]> {
      await restoreQuiescedGrants(deps, input.jobId);
      const ws = await deps.resolveWorkspace(input.workspace);
      const available = (await ws.listSchemas(input.options.source_catalog)).map((s) => s.name);
      const { schemas } = chooseSchemas(available, selectionFor(input.options as CloneOptions));
      const revoked: QuiescedGrant[] = [];
      for (const schema of schemas) revoked.push(...(await revokeSchema(deps, ws, input, schema)));
      safetyLog('info', 'quiesced source', { jobId: input.jobId, schemas: schemas.length, grants: revoked.length });
      return revoked;
    },
    releaseQuiesce: (jobId: string) => restoreQuiescedGrants(deps, jobId),
  };
}

/**
 * Start-up sweep: gives back grants of jobs that are no longer running (e.g. terminated, so their workflow
 * never reached its clean-up). `isOpen` asks Temporal whether the job's workflow is still running.
 */
export async function sweepQuiescedGrants(
  deps: SafetyDeps,
  isOpen: (jobId: string) => Promise<boolean>,
): Promise<string[]> {
  const swept: string[] = [];
  for (const jobId of await jobsWithUnrestoredGrants(deps.db)) {
    if (await isOpen(jobId)) continue;
    await restoreQuiescedGrants(deps, jobId);
    swept.push(jobId);
  }
  return swept;
}

export type QuiesceActivities = ReturnType<typeof createQuiesceActivities>;
