import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Store } from '../../store/db';
import { getJob } from '../../store/jobs/jobs';

/**
 * A model's Schedule: ingest, then match, each a job of the kernel submitted as its route submits it. The worker
 * wires the submission from the API's MDM services (workers/stack.ts); activities never import the API.
 */
export interface MdmServices {
  /** Queues an mdm_ingest job of every source of the entity type. */
  submitIngest(entityType: string): Promise<{ job_id: string }>;
  /** Queues an mdm_match job (incremental once a run completed, else full). */
  submitMatch(entityType: string): Promise<{ job_id: string }>;
}

const POLL_MS = 1000;

export function createMdmScheduleActivities(deps: { store: Store; services?: MdmServices }) {
  const services = () => {
    if (!deps.services)
      throw ApplicationFailure.create({ nonRetryable: true, message: 'MDM services are not wired in this worker' });
    return deps.services;
  };
  return {
    /** Submits the step's job; a refused submission (no sources, a run still going) fails the firing at once. */
    async mdmScheduledSubmit(input: { entityType: string; step: 'ingest' | 'match' }): Promise<string> {
      try {
        const s = services();
        const { job_id } = await (input.step === 'ingest'
          ? s.submitIngest(input.entityType)
          : s.submitMatch(input.entityType));
        return job_id;
      } catch (err) {
        const status = (err as { status?: number }).status;
        if (status !== undefined && status < 500 && status !== 429)
          throw ApplicationFailure.create({ nonRetryable: true, message: (err as Error).message });
        throw err;
      }
    },

    /** Waits (heartbeating) for a job's end; a job that did not complete fails the firing with its error. */
    async mdmScheduledAwait(input: { jobId: string }): Promise<{ job_id: string; status: string }> {
      const ctx = Context.current();
      for (;;) {
        const row = await getJob(deps.store.db, input.jobId);
        if (!row) throw ApplicationFailure.create({ nonRetryable: true, message: `job ${input.jobId} is gone` });
        if (row.completedAt) {
          if (row.status !== 'completed')
            throw ApplicationFailure.create({
              nonRetryable: true,
              message: `${row.jobType} job ${row.jobId} ${row.status}: ${row.error ?? ''}`,
            });
          return { job_id: row.jobId, status: row.status };
        }
        ctx.heartbeat();
        await ctx.sleep(POLL_MS);
      }
    },
  };
}

export type MdmScheduleActivities = ReturnType<typeof createMdmScheduleActivities>;
