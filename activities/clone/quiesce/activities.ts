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

/** Schema-level privileges that let a principal change a schema's data or objects. */
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
const norm = (p: string) => p.toUpperCase().replace(/\s+/g, '_');
const isWrite = (p: string) => WRITE_PRIVILEGES.includes(norm(p));

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
    const privileges = g.privileges.filter(isWrite);
    if (privileges.length === 0) continue;
    // Record first: if this worker dies after the revoke, the record is what gets the grant back.
    await recordQuiesceGrant(deps.db, {
      jobId: input.jobId,
      catalog,
      schemaName: schema,
      principal: g.principal,
      privileges,
      workspace: input.workspace as unknown as Record<string, unknown>,
    });
    await ws.revoke(s, g.principal, privileges);
    await markQuiesceGrants(deps.db, input.jobId, [{ catalog, schemaName: schema, principal: g.principal }], 'revoked');
    out.push({ schema, principal: g.principal, privileges });
  }
  return out;
}

/** Re-grants exactly what the job revoked; idempotent (granting a held privilege changes nothing). */
export async function restoreQuiescedGrants(deps: SafetyDeps, jobId: string): Promise<QuiescedGrant[]> {
  const rows = (await quiesceGrantsForJob(deps.db, jobId)).filter((r) => r.status !== 'restored');
  const restored: QuiescedGrant[] = [];
  for (const r of rows) {
    const ws = await deps.resolveWorkspace(r.workspace as unknown as WorkspaceRef);
    await ws.grant(schemaSecurable(r.catalog, r.schemaName), r.principal, r.privileges);
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
