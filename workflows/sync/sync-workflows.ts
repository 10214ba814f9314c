import { ActivityCancellationType, executeChild, proxyActivities } from '@temporalio/workflow';
import { NON_RETRYABLE_FAILURE_TYPES } from '../../activities/clone/logic/failures';
import type { JobActivities } from '../../activities/jobs';
import type { MergeOutcome, PlannedSync, SyncActivities, SyncSides } from '../../activities/sync';
import { cloneObjectsOf } from '../../activities/sync/logic/catalog-plan';
import type { CatalogSyncInput, IncrementalSyncInput, SyncPlan } from '../../schemas/sync';
import type { cloneCatalogWorkflow } from '../clone/clone-catalog';
import type { CloneJobInput, CloneSummary } from '../clone/definitions';

const acts = proxyActivities<SyncActivities>({
  startToCloseTimeout: '6 hours',
  heartbeatTimeout: '30 seconds',
  retry: {
    maximumAttempts: 3,
    initialInterval: 1000,
    backoffCoefficient: 2,
    nonRetryableErrorTypes: [...NON_RETRYABLE_FAILURE_TYPES],
  },
  cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
});
const { reportJobProgress } = proxyActivities<JobActivities>({
  startToCloseTimeout: '1 minute',
  retry: { maximumAttempts: 5 },
});

export interface SyncJobResult {
  status: 'completed' | 'failed';
  error: string | null;
  dry_run: boolean;
  plan: SyncPlan;
  merged: Extract<MergeOutcome, { ok: true }>[];
  copied: { schema: string; table: string }[];
  dropped: string[];
  tables_failed: number;
  copy: Pick<CloneSummary, 'status' | 'tables_cloned' | 'tables_failed' | 'bytes_copied' | 'error'> | null;
}

function sidesOf(input: { jobId: string; sourceCatalog: string; clone: Record<string, unknown> }): SyncSides {
  const clone = input.clone as unknown as CloneJobInput;
  return { jobId: input.jobId, source: clone.source, target: clone.targets[0], sourceCatalog: input.sourceCatalog };
}

/**
 * Carries out a sync plan: missing schemas first, then each MERGE table (a table whose MERGE is not possible
 * is copied instead), then one clone of every table to copy and object to create through the clone engine
 * (a child workflow with the same job id, so its table events and records are this job's), then the drops.
 */
async function applyPlan(
  input: { jobId: string; sourceCatalog: string; clone: Record<string, unknown> },
  planned: PlannedSync,
  dryRun: boolean,
): Promise<SyncJobResult> {
  const s = sidesOf(input);
  const { plan, merges } = planned;
  const result: SyncJobResult = {
    status: 'completed',
    error: null,
    dry_run: dryRun,
    plan,
    merged: [],
    copied: [],
    dropped: [],
    tables_failed: 0,
    copy: null,
  };
  const objects = cloneObjectsOf(plan.actions);
  const tableTotal = merges.length + objects.filter((o) => o.type === 'table').length;
  await reportJobProgress(input.jobId, { completed: 0, total: tableTotal, tables: `0/${tableTotal}` });
  if (dryRun) return result;

  const schemas = plan.actions.filter((a) => a.action === 'create_schema').map((a) => a.schema);
  if (schemas.length > 0) await acts.createSyncSchemas({ ...s, schemas });

  let done = 0;
  for (const m of merges) {
    const out = await acts.mergeSyncTable({ ...s, ...m });
    if (out.ok) result.merged.push(out);
    else objects.push({ schema: m.schema, name: m.table, type: 'table' });
    done++;
    await reportJobProgress(input.jobId, { completed: done, total: tableTotal, tables: `${done}/${tableTotal}` });
  }

  const tables = objects.filter((o) => o.type === 'table');
  if (objects.length > 0) {
    const reasons = new Map(plan.actions.map((a) => [`${a.schema}.${a.name}`, a.detail]));
    await acts.announceCopies({
      ...s,
      tables: tables.map((t) => ({
        schema: t.schema,
        table: t.name,
        reason: reasons.get(`${t.schema}.${t.name}`) ?? 'MERGE not possible',
      })),
    });
    const clone = input.clone as unknown as CloneJobInput;
    const copyInput: CloneJobInput = {
      ...clone,
      jobId: input.jobId,
      options: { ...clone.options, load_type: 'FULL', dry_run: false, include_objects: objects },
    };
    const summary = await executeChild<typeof cloneCatalogWorkflow>('cloneCatalogWorkflow', {
      workflowId: `${input.jobId}-copy`,
      args: [copyInput],
    });
    result.copy = {
      status: summary.status,
      tables_cloned: summary.tables_cloned,
      tables_failed: summary.tables_failed,
      bytes_copied: summary.bytes_copied,
      error: summary.error,
    };
    result.copied = tables.map((t) => ({ schema: t.schema, table: t.name }));
    result.tables_failed = summary.tables_failed;
    if (summary.status !== 'completed' || summary.tables_failed > 0) {
      result.status = 'failed';
      result.error = summary.error ?? `${summary.tables_failed} tables failed to copy`;
    }
    await reportJobProgress(input.jobId, {
      completed: tableTotal,
      total: tableTotal,
      tables: `${tableTotal}/${tableTotal}`,
    });
  }

  const drops = plan.actions.filter((a) => a.action.startsWith('drop_'));
  if (drops.length > 0) result.dropped = await acts.dropSyncExtras({ ...s, actions: drops });
  return result;
}

/**
 * Incremental sync of one schema (job type `incremental_sync`): the incremental check's new and changed
 * tables only, each changed table with a small change data feed and a key by MERGE, the others by copy.
 */
export async function incrementalSyncWorkflow(input: IncrementalSyncInput): Promise<SyncJobResult> {
  const planned = await acts.planIncrementalSync({ ...sidesOf(input), schema: input.schema, dryRun: input.dryRun });
  return applyPlan(input, planned, input.dryRun);
}

/** Two-way catalog sync (job type `sync`): creates what is missing, re-syncs what changed, drops extras on request. */
export async function catalogSyncWorkflow(input: CatalogSyncInput): Promise<SyncJobResult> {
  const planned = await acts.planCatalogSyncJob({
    ...sidesOf(input),
    includeSchemas: input.includeSchemas,
    excludeSchemas: input.excludeSchemas,
    dropExtra: input.dropExtra,
  });
  return applyPlan(input, planned, false);
}
