import { log } from '@temporalio/activity';
import { ScheduleNotFoundError, type Client } from '@temporalio/client';
import type { WorkspaceResolver } from '../../platform/workspace-resolver';
import type { Workspace } from '../../platform/port';
import type { CloneRequestInput } from '../../schemas/clone';
import type { Store } from '../../store/db';
import { getJob } from '../../store/jobs/jobs';
import { addNotification } from '../../store/notifications/repo';
import {
  bumpSchedule,
  finishRun,
  getRun,
  getSchedule,
  insertRun,
  setRunJob,
  updateSchedule,
  type ScheduleRow,
} from '../../store/schedules/repo';
import { changeSummary, driftDecision, skipMessage, type SourceVersions } from './logic/drift';

/**
 * Submits one clone job through the job kernel exactly as POST /api/clone does (template, config, checks,
 * queue limits). The worker wires it from the API's clone service (workers/stack.ts): activities do not import
 * the API.
 */
export type SubmitScheduledClone = (request: CloneRequestInput) => Promise<{ job_id: string }>;

export interface ScheduleActivityDeps {
  store: Store;
  workspaces: WorkspaceResolver;
  client: Client;
  submitClone?: SubmitScheduledClone;
}

export interface ScheduledRunStart {
  scheduleId: string;
  /** The run's workflow id (Temporal's `<schedule id>-<scheduled time>`). */
  runId: string;
  /** ISO 8601, when the schedule meant the run to start. */
  scheduledAt?: string;
}

export type ScheduledRunDecision =
  | { action: 'clone'; runId: string; jobId: string; message: string; maxRetries?: number }
  | { action: 'skipped' | 'ended' | 'failed'; runId: string; message: string };

export interface ScheduledRunEnd {
  scheduleId: string;
  runId: string;
  jobId: string;
  status: string;
  error?: string | null;
}

/** What a scheduled run reports (the workflow's result). */
export interface ScheduledRunResult {
  runId: string;
  outcome: string;
  jobId?: string;
  message: string;
}

/** Schema names a clone never copies. */
const SYSTEM_SCHEMAS = new Set(['information_schema']);

/** Delta versions of the source catalog's tables (views and non-Delta tables have none), `schema.table` keys. */
export async function sourceVersions(
  ws: Workspace,
  catalog: string,
  excludeSchemas: string[] = [],
): Promise<SourceVersions> {
  const out: SourceVersions = {};
  for (const schema of await ws.listSchemas(catalog)) {
    if (SYSTEM_SCHEMAS.has(schema.name) || excludeSchemas.includes(schema.name)) continue;
    for (const t of await ws.listTables(catalog, schema.name)) {
      if (t.tableType === 'VIEW' || (t.format && t.format !== 'DELTA')) continue;
      const [last] = await ws.tableHistory({ catalog, schema: schema.name, name: t.name }, 1);
      if (last) out[`${schema.name}.${t.name}`] = last.version;
    }
  }
  return out;
}

/** A persistent job's max_retries: clone re-submissions after a failed run (schedules have none). */
const maxRetriesOf = (row: ScheduleRow) => Number(row.spec.max_retries ?? 0) || 0;

const notifyFlags = (row: ScheduleRow) => {
  const n = (row.spec.notifications ?? {}) as { on_success?: boolean; on_failure?: boolean };
  return { onSuccess: n.on_success !== false, onFailure: n.on_failure !== false };
};

/** The activities of a scheduled clone run (workflows/schedules/scheduled-clone-workflow.ts). */
export function createScheduleActivities(deps: ScheduleActivityDeps) {
  const { db } = deps.store;

  /** Pauses the Temporal Schedule with a note (gone already is fine): max_runs reached. */
  async function pauseSchedule(scheduleId: string, note: string): Promise<void> {
    try {
      await deps.client.schedule.getHandle(scheduleId).pause(note);
    } catch (err) {
      if (!(err instanceof ScheduleNotFoundError)) throw err;
    }
  }

  async function endSchedule(row: ScheduleRow): Promise<string> {
    const note = `max_runs ${row.maxRuns} reached: ${row.clones} scheduled clone${row.clones === 1 ? '' : 's'} done`;
    await updateSchedule(db, row.scheduleId, { status: 'ended' });
    await pauseSchedule(row.scheduleId, note);
    return note;
  }

  /**
   * Submits the schedule's clone through the kernel. A refusal (the source catalog is gone, the queue is full, a
   * 4xx of POST /api/clone) is an outcome of the run, not an activity failure to retry.
   */
  async function submit(row: ScheduleRow): Promise<{ jobId: string } | { refused: string }> {
    if (!deps.submitClone)
      throw new Error('this worker has no clone submitter (workers/stack.ts wires it); scheduled clones need it');
    try {
      return { jobId: (await deps.submitClone(row.cloneRequest as unknown as CloneRequestInput)).job_id };
    } catch (err) {
      const status = (err as { status?: number }).status;
      if (typeof status === 'number' && status >= 400 && status < 500) return { refused: (err as Error).message };
      throw err;
    }
  }

  return {
    /**
     * Starts a scheduled run: ends it when max_runs is already reached, skips it when drift_check finds the
     * source unchanged since the last scheduled clone, otherwise submits the clone job through the job kernel.
     * Idempotent per run id (a retry returns what the first attempt decided).
     */
    async beginScheduledRun(start: ScheduledRunStart): Promise<ScheduledRunDecision> {
      const { runId } = start;
      const earlier = await getRun(db, runId);
      if (earlier?.jobId)
        return { action: 'clone', runId, jobId: earlier.jobId, message: earlier.reason ?? '', maxRetries: 0 };
      if (earlier && earlier.outcome !== 'running')
        return { action: earlier.outcome === 'ended' ? 'ended' : 'skipped', runId, message: earlier.reason ?? '' };
      const row = await getSchedule(db, start.scheduleId);
      if (!row) throw new Error(`schedule ${start.scheduleId} is not in the store (deleted?)`);
      const scheduledAt = start.scheduledAt ? new Date(start.scheduledAt) : null;
      if (row.status === 'ended' || (row.maxRuns > 0 && row.clones >= row.maxRuns)) {
        const message = await endSchedule(row);
        await insertRun(db, {
          runId,
          scheduleId: row.scheduleId,
          scheduledAt,
          outcome: 'ended',
          reason: message,
          endedAt: new Date(),
        });
        return { action: 'ended', runId, message };
      }
      const request = row.cloneRequest as unknown as CloneRequestInput;
      // A source that cannot be read is not "unchanged": the clone runs and its job reports the cause.
      const versions = await sourceVersions(
        await deps.workspaces.default(),
        request.source_catalog,
        request.exclude_schemas ?? [],
      ).catch((err: unknown) => {
        log.warn(`source versions of ${request.source_catalog} unreadable: ${(err as Error).message}`);
        return null;
      });
      const drift = versions
        ? driftDecision(row.lastVersions ?? null, versions)
        : { changed: true, changedTables: [], added: [], removed: [] };
      if (versions && row.driftCheck && !drift.changed) {
        const message = skipMessage({
          name: row.name,
          sourceCatalog: request.source_catalog,
          tables: Object.keys(versions).length,
          lastJobId: row.lastCloneJobId,
          lastStartedAt: row.lastCloneStartedAt,
          lastCompletedAt: row.lastCloneCompletedAt,
        });
        const { created } = await insertRun(db, {
          runId,
          scheduleId: row.scheduleId,
          scheduledAt,
          outcome: 'skipped',
          reason: message,
          versions,
          endedAt: new Date(),
        });
        if (created) {
          await bumpSchedule(db, row.scheduleId, { skipped: 1 });
          await addNotification(db, { type: 'skipped', message, status: 'skipped', jobId: runId });
        }
        log.info(message, { event: 'schedule_run_skipped', schedule_id: row.scheduleId, run_id: runId });
        return { action: 'skipped', runId, message };
      }
      await insertRun(db, { runId, scheduleId: row.scheduleId, scheduledAt, outcome: 'running', versions });
      const submitted = await submit(row);
      if ('refused' in submitted) {
        const message = `Scheduled clone ${row.name}: the clone was refused: ${submitted.refused}`;
        if (await finishRun(db, runId, { outcome: 'failed', reason: message })) {
          await bumpSchedule(db, row.scheduleId, { failed: 1 });
          if (notifyFlags(row).onFailure)
            await addNotification(db, { type: 'schedule_failure', message, status: 'failed', jobId: runId });
        }
        log.warn(message, { event: 'schedule_run_refused', schedule_id: row.scheduleId, run_id: runId });
        return { action: 'failed', runId, message };
      }
      const jobId = submitted.jobId;
      const message = `Scheduled clone ${row.name} submitted clone job ${jobId} (${
        !versions ? 'source versions unreadable' : row.driftCheck ? changeSummary(drift) : 'drift_check off'
      })`;
      await updateSchedule(db, row.scheduleId, { lastCloneJobId: jobId });
      await setRunJob(db, runId, jobId, message);
      log.info(message, { event: 'schedule_run_started', schedule_id: row.scheduleId, run_id: runId, job_id: jobId });
      return { action: 'clone', runId, jobId, message, maxRetries: maxRetriesOf(row) };
    },

    /** Submits the run's clone again after a failure (a job's max_retries); returns the new clone job id. */
    async retryScheduledClone(retry: { scheduleId: string; runId: string; attempt: number; error?: string | null }) {
      const row = await getSchedule(db, retry.scheduleId);
      if (!row) throw new Error(`schedule ${retry.scheduleId} is not in the store (deleted?)`);
      const submitted = await submit(row);
      if ('refused' in submitted) return { refused: submitted.refused };
      const jobId = submitted.jobId;
      const run = await getRun(db, retry.runId);
      const message = `retry ${retry.attempt} of ${maxRetriesOf(row)} after ${retry.error ?? 'a failure'}: clone job ${jobId}`;
      await setRunJob(db, retry.runId, jobId, run?.reason ? `${run.reason}; ${message}` : message);
      log.info(message, { event: 'schedule_run_retry', schedule_id: row.scheduleId, run_id: retry.runId });
      return { jobId };
    },

    /**
     * Records how the run's clone job ended: a completed clone counts toward max_runs and its source versions
     * become the drift baseline; a scheduled success/failure notification (notifications.on_success /
     * on_failure of the schedule); the Schedule is paused when max_runs is reached.
     */
    async finishScheduledRun(end: ScheduledRunEnd): Promise<ScheduledRunResult> {
      const run = await getRun(db, end.runId);
      const row = await getSchedule(db, end.scheduleId);
      const ok = end.status === 'completed';
      const message = ok
        ? `Scheduled clone ${row?.name ?? end.scheduleId}: clone job ${end.jobId} completed`
        : `Scheduled clone ${row?.name ?? end.scheduleId}: clone job ${end.jobId} ${end.status}${
            end.error ? `: ${end.error}` : ''
          }`;
      const reason = run?.reason ? `${run.reason}; ${message}` : message;
      const first = await finishRun(db, end.runId, { outcome: end.status, reason });
      if (!first || !row) return { runId: end.runId, outcome: end.status, jobId: end.jobId, message };
      const job = await getJob(db, end.jobId);
      const updated = await bumpSchedule(
        db,
        row.scheduleId,
        ok ? { clones: 1 } : { failed: 1 },
        ok
          ? {
              lastVersions: run?.versions ?? null,
              lastCloneJobId: end.jobId,
              lastCloneStartedAt: job?.startedAt ?? run?.startedAt ?? null,
              lastCloneCompletedAt: job?.completedAt ?? new Date(),
            }
          : {},
      );
      const flags = notifyFlags(row);
      if (ok ? flags.onSuccess : flags.onFailure)
        await addNotification(db, {
          type: ok ? 'schedule_success' : 'schedule_failure',
          message,
          status: end.status,
          jobId: end.jobId,
        });
      let final = message;
      if (updated && ok && updated.maxRuns > 0 && updated.clones >= updated.maxRuns)
        final = `${message}; ${await endSchedule(updated)}`;
      log.info(final, { event: 'schedule_run_ended', schedule_id: row.scheduleId, run_id: end.runId });
      return { runId: end.runId, outcome: end.status, jobId: end.jobId, message: final };
    },
  };
}

export type ScheduleActivities = ReturnType<typeof createScheduleActivities>;
