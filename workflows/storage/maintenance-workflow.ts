import { ActivityCancellationType, isCancellation, proxyActivities } from '@temporalio/workflow';
import { NON_RETRYABLE_FAILURE_TYPES } from '../../activities/clone/logic/failures';
import { rootCauseMessage } from '../../activities/jobs/logic/root-cause';
import type { JobActivities } from '../../activities/jobs';
import type { StorageActivities } from '../../activities/storage';
import type { MaintenanceTableResult, StorageJobInput } from '../../schemas/storage';

const { storageMaintainTable } = proxyActivities<StorageActivities>({
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
const { appendJobEvents, reportJobProgress } = proxyActivities<JobActivities>({
  startToCloseTimeout: '1 minute',
  retry: { maximumAttempts: 5 },
});

export interface StorageJobResult {
  status: 'completed' | 'failed';
  error: string | null;
  operation: StorageJobInput['operation'];
  catalog: string;
  total: number;
  succeeded: number;
  failed: number;
  retention_hours: number | null;
  dry_run: boolean;
  files_removed: number;
  bytes_removed: number;
  results: MaintenanceTableResult[];
}

/**
 * OPTIMIZE or VACUUM of a catalog's tables (job type `storage`): one activity per table, `parallelism` at once,
 * progress and a table_started / table_finished event per table. A failed table is reported with its error and
 * the others go on; the job fails only when every table failed. Cancel stops the tables in flight.
 */
export async function storageMaintenanceWorkflow(input: StorageJobInput): Promise<StorageJobResult> {
  const total = input.tables.length;
  const verb = input.operation.toUpperCase();
  await reportJobProgress(input.jobId, { completed: 0, total, tables: `0/${total}` });
  const results: MaintenanceTableResult[] = new Array(total);
  let next = 0;
  let done = 0;
  const lane = async () => {
    while (next < total) {
      const i = next++;
      const t = input.tables[i];
      const name = `${input.catalog}.${t.schema}.${t.table}`;
      await appendJobEvents(input.jobId, [
        { event: 'table_started', message: `${verb} ${name}`, data: { table: name, schema: t.schema } },
      ]);
      const r = await storageMaintainTable({
        jobId: input.jobId,
        operation: input.operation,
        catalog: input.catalog,
        schema: t.schema,
        table: t.table,
        retentionHours: input.retentionHours,
        dryRun: input.dryRun,
      }).catch((err: unknown): MaintenanceTableResult => {
        if (isCancellation(err)) throw err;
        return {
          schema: t.schema,
          table: t.table,
          status: 'failed',
          error: rootCauseMessage(err),
          files_removed: 0,
          files_added: 0,
          bytes_removed: 0,
          bytes_added: 0,
          files: [],
        };
      });
      results[i] = r;
      done++;
      const message =
        r.status === 'failed'
          ? `${name}: ${r.error}`
          : `${name}: ${r.status === 'dry_run' ? 'would remove' : 'removed'} ${r.files_removed} file(s), ${r.bytes_removed} bytes` +
            (input.operation === 'optimize' ? `; added ${r.files_added} file(s), ${r.bytes_added} bytes` : '');
      await appendJobEvents(input.jobId, [
        {
          event: 'table_finished',
          message,
          level: r.status === 'failed' ? 'error' : 'info',
          data: { table: name, status: r.status, files_removed: r.files_removed, bytes_removed: r.bytes_removed },
        },
      ]);
      await reportJobProgress(input.jobId, { completed: done, total, tables: `${done}/${total}` });
    }
  };
  await Promise.all(Array.from({ length: Math.min(input.parallelism, Math.max(total, 1)) }, lane));
  const failed = results.filter((r) => r.status === 'failed');
  const allFailed = total > 0 && failed.length === total;
  return {
    status: allFailed ? 'failed' : 'completed',
    error: allFailed ? (failed[0]?.error ?? 'every table failed') : null,
    operation: input.operation,
    catalog: input.catalog,
    total,
    succeeded: total - failed.length,
    failed: failed.length,
    retention_hours: input.retentionHours,
    dry_run: input.dryRun,
    files_removed: results.reduce((a, r) => a + r.files_removed, 0),
    bytes_removed: results.reduce((a, r) => a + r.bytes_removed, 0),
    results,
  };
}
