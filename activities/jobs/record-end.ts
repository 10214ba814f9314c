import { log } from '@temporalio/activity';
import type { Store } from '../../store/db';
import { recordAudit } from '../../store/audit/repo';
import { createJob, finishJob, getJob, markJobStarted } from '../../store/jobs/jobs';
import { addNotification } from '../../store/notifications/repo';
import { eventsCommitted, recordEvent } from '../../store/automation/events';
import { appendRunLog } from '../../store/jobs/run-logs';
import type { JobEnd } from '../../workflows/jobs/definitions';
import { endMessage, isFinalStatus, summaryDetails } from './messages';
import { complianceEnvelope, type SigningKeySource } from './provenance';
import { jobSettingsOf } from './settings';
import {
  recordCloneBytes,
  recordCloneTables,
  recordJobEnded,
  recordJobStarted,
} from '../../platform/observability/metrics';

/** Jobs ended, and the tables and bytes a job's summary reports (clone jobs), from the recorded end. */
function countJobEnd(jobType: string, end: JobEnd): void {
  recordJobEnded(jobType, end.status);
  const summary = (end.summary ?? {}) as Record<string, unknown>;
  const tables = { cloned: summary.tables_cloned, failed: summary.tables_failed, skipped: summary.tables_skipped };
  for (const [status, n] of Object.entries(tables)) {
    if (typeof n === 'number') recordCloneTables(status, n);
  }
  if (typeof summary.bytes_copied === 'number') recordCloneBytes(summary.bytes_copied);
}

/** `signingKey` signs compliance reports (the job's compliance_report setting); without it they are skipped. */
export function createJobEndActivities(
  store: Store,
  signingKey?: SigningKeySource,
  afterJobEnd?: (jobId: string) => Promise<unknown>,
) {
  return {
    /** queued → running (a job already `cancelling` stays so: its cancel is on its way). */
    async markJobRunning(jobId: string): Promise<void> {
      const at = new Date();
      const started = await markJobStarted(store.db, jobId, at);
      if (started) recordJobStarted(started.jobType, (at.getTime() - started.createdAt.getTime()) / 1000);
      log.info('job running', { event: 'running' });
    },

    /**
     * Records how a job ended: the jobs row (status, summary, completed_at), an audit row, a success/failure
     * notification and a final `status` event in the run log, all in one transaction. The completed_at it
     * sets is what invalidates the API's metadata cache. Idempotent: a job already recorded is left alone.
     * The job's settings (stored with its row) can turn either notification off, add build warnings to the
     * summary and ask for a signed provenance manifest in summary.provenance.
     */
    async recordJobEnd(end: JobEnd, jobType = 'clone'): Promise<void> {
      const recorded = await store.db.transaction(async (tx) => {
        const row =
          (await getJob(tx, end.jobId)) ?? (await createJob(tx, { jobId: end.jobId, jobType, status: 'queued' }));
        if (isFinalStatus(row.status) && row.completedAt) return undefined;
        const at = new Date();
        const durationMs = at.getTime() - (row.startedAt ?? row.createdAt).getTime();
        const settings = jobSettingsOf(row.request);
        let summary = end.summary ? (end.summary as Record<string, unknown>) : null;
        if (summary && settings.warnings.length) {
          const own = Array.isArray(summary.warnings) ? (summary.warnings as string[]) : [];
          summary = { ...summary, warnings: [...settings.warnings, ...own] };
        }
        if (settings.compliance_report) {
          const signed = complianceEnvelope(row, end, summary, signingKey);
          summary = { ...(summary ?? {}), ...signed };
        }
        await finishJob(tx, end.jobId, { status: end.status, summary, error: end.error ?? null, at });
        await recordAudit(tx, {
          jobId: end.jobId,
          action: row.jobType,
          status: end.status,
          durationMs,
          error: end.error ?? null,
          details: {
            source_catalog: row.sourceCatalog,
            destination_catalog: row.destinationCatalog,
            ...summaryDetails(end.summary as Record<string, unknown> | null),
          },
        });
        const success = end.status === 'completed';
        if (success ? settings.notify_on_success : settings.notify_on_failure)
          await addNotification(tx, {
            type: success ? 'success' : 'failure',
            message: endMessage(row, end),
            status: end.status,
            jobId: end.jobId,
          });
        await appendRunLog(tx, end.jobId, [
          {
            level: end.status === 'completed' ? 'info' : 'error',
            message: endMessage(row, end),
            data: { event: 'status', status: end.status, final: true, error: end.error ?? null },
          },
        ]);
        // The playbook event of this end, in the same transaction (a job that failed has its job.failed event).
        await recordEvent(tx, {
          type: success ? 'job.succeeded' : end.status === 'cancelled' ? 'job.cancelled' : 'job.failed',
          jobId: end.jobId,
          message: endMessage(row, end),
          data: {
            job_type: row.jobType,
            status: end.status,
            error: end.error ?? null,
            source_catalog: row.sourceCatalog,
            destination_catalog: row.destinationCatalog,
          },
        });
        return row.jobType;
      });
      if (recorded) eventsCommitted();
      // Counted once, when the end is first recorded (a retried or repeated recordJobEnd finds it recorded).
      if (recorded) countJobEnd(recorded, end);
      log.info('job ended', { jobId: end.jobId, jobType, status: end.status });
      // Every job's last step (the usage ledger derives what the job used); its failure never fails the job.
      if (afterJobEnd)
        await afterJobEnd(end.jobId).catch((err: unknown) =>
          log.warn('after-job step failed', { jobId: end.jobId, error: (err as Error).message }),
        );
    },
  };
}
