import { ActivityCancellationType, isCancellation, proxyActivities } from '@temporalio/workflow';
import { NON_RETRYABLE_FAILURE_TYPES } from '../../activities/clone/logic/failures';
import { rootCauseMessage } from '../../activities/jobs/logic/root-cause';
import type { JobActivities } from '../../activities/jobs';
import type { MdmActivities } from '../../activities/mdm';
import type { IngestSourceSummary, MdmIngestInput } from '../../schemas/mdm-runs';

const retry = {
  maximumAttempts: 3,
  initialInterval: 1000,
  backoffCoefficient: 2,
  nonRetryableErrorTypes: [...NON_RETRYABLE_FAILURE_TYPES],
};
const { mdmIngestSource, mdmEnsureTables } = proxyActivities<MdmActivities>({
  startToCloseTimeout: '6 hours',
  heartbeatTimeout: '30 seconds',
  retry,
  cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
});
const { appendJobEvents, reportJobProgress } = proxyActivities<JobActivities>({
  startToCloseTimeout: '1 minute',
  retry: { maximumAttempts: 5 },
});

export interface MdmIngestResult {
  status: 'completed' | 'failed';
  error: string | null;
  entity_type: string;
  sources: (IngestSourceSummary | { system: string; error: string })[];
}

/**
 * An MDM ingest (job type `mdm_ingest`): the entity type's source_records table is created when missing, then each
 * source is read in turn by one INSERT … SELECT that standardises its values. A source that fails is reported
 * with its cause and the others still run; the job fails when every source failed.
 */
export async function mdmIngestWorkflow(input: MdmIngestInput): Promise<MdmIngestResult> {
  const total = input.sources.length;
  await reportJobProgress(input.jobId, { completed: 0, total, sources: `0/${total}` });
  const { recreated } = await mdmEnsureTables({ catalog: input.catalog, model: input.model });
  if (recreated)
    await appendJobEvents(input.jobId, [
      {
        event: 'warning',
        level: 'info',
        message: `created ${input.catalog}.mdm.source_records_${input.entityType} for the model's attributes`,
      },
    ]);
  const ts = new Date().toISOString();
  const results: MdmIngestResult['sources'] = [];
  for (const source of input.sources) {
    await appendJobEvents(input.jobId, [
      {
        event: 'table_started',
        message: `reading ${source.system} (${source.table_fqn})`,
        data: { table: source.table_fqn },
      },
    ]);
    try {
      const s = await mdmIngestSource({
        ingestId: input.jobId,
        catalog: input.catalog,
        model: input.model,
        source,
        ts,
      });
      results.push(s);
      const skipped = Object.entries(s.skipped).map(([why, n]) => `${n} ${why}`);
      await appendJobEvents(input.jobId, [
        {
          event: 'table_finished',
          message:
            `${source.system}: ${s.rows_read} rows read, ${s.rows_written} records, ${s.changed} new or changed, ` +
            `${s.vanished} vanished, ${s.duplicate_keys} duplicate keys` +
            (skipped.length ? `, skipped ${skipped.join(', ')}` : ''),
          data: { table: source.table_fqn, status: 'completed', ...s },
        },
      ]);
    } catch (err) {
      if (isCancellation(err)) throw err;
      const error = rootCauseMessage(err);
      results.push({ system: source.system, error });
      await appendJobEvents(input.jobId, [
        {
          event: 'table_finished',
          level: 'error',
          message: `${source.system}: ${error}`,
          data: { table: source.table_fqn, status: 'failed' },
        },
      ]);
    }
    await reportJobProgress(input.jobId, { completed: results.length, total, sources: `${results.length}/${total}` });
  }
  const failed = results.filter((r): r is { system: string; error: string } => 'error' in r);
  const allFailed = total > 0 && failed.length === total;
  return {
    status: allFailed ? 'failed' : 'completed',
    error: allFailed ? failed[0].error : null,
    entity_type: input.entityType,
    sources: results,
  };
}
