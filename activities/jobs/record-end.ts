import { log } from '@temporalio/activity';
import type { Store } from '../../store/db';
import { recordAudit } from '../../store/repos/audit';
import { createJob, finishJob, getJob, markJobStarted } from '../../store/repos/jobs';
import { addNotification } from '../../store/repos/notifications';
import { appendRunLog } from '../../store/repos/run-logs';
import type { JobEnd } from '../../workflows/queue/definitions';
import { endMessage, isFinalStatus, summaryDetails } from './messages';

export function createJobEndActivities(store: Store) {
  return {
    async markJobRunning(jobId: string): Promise<void> {
      const row = await getJob(store.db, jobId);
      if (row && row.status === 'queued') await markJobStarted(store.db, jobId);
    },

    /**
     * Records how a job ended: the jobs row (status, summary, completed_at), an audit row, a success/failure
     * notification and a final `status` event in the run log, all in one transaction. The completed_at it
     * sets is what invalidates the API's metadata cache. Idempotent: a job already recorded is left alone.
     */
    async recordJobEnd(end: JobEnd): Promise<void> {
      await store.db.transaction(async (tx) => {
        const row =
          (await getJob(tx, end.jobId)) ??
          (await createJob(tx, { jobId: end.jobId, jobType: 'clone', status: 'queued' }));
        if (isFinalStatus(row.status) && row.completedAt) return;
        const at = new Date();
        const durationMs = at.getTime() - (row.startedAt ?? row.createdAt).getTime();
        const summary = end.summary ? (end.summary as Record<string, unknown>) : null;
        await finishJob(tx, end.jobId, { status: end.status, summary, error: end.error ?? null, at });
        await recordAudit(tx, {
          jobId: end.jobId,
          action: 'clone',
          status: end.status,
          durationMs,
          error: end.error ?? null,
          details: {
            source_catalog: row.sourceCatalog,
            destination_catalog: row.destinationCatalog,
            ...summaryDetails(end.summary),
          },
        });
        await addNotification(tx, {
          type: end.status === 'completed' ? 'success' : 'failure',
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
      });
      log.info('clone job ended', { jobId: end.jobId, status: end.status });
    },
  };
}
