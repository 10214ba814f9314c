import { ScheduleNotFoundError, type ScheduleDescription } from '@temporalio/client';
import type { ScheduleView } from '../../schemas/schedules';
import { listRuns, listSchedules, type ScheduleRow, type ScheduleRunRow } from '../../store/schedules/repo';
import type { AppDeps } from '../deps';
import { handleOf, type ScheduleKind } from './service';

// What the schedule routes answer: a schedule as stored beside what its Temporal Schedule says now, and its runs.

async function describe(deps: AppDeps, row: ScheduleRow): Promise<ScheduleDescription | null> {
  if (row.target !== 'temporal' || !deps.temporal) return null;
  try {
    return await handleOf(deps, row.scheduleId).describe();
  } catch (err) {
    if (err instanceof ScheduleNotFoundError) return null;
    throw err;
  }
}

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

export function runView(r: ScheduleRunRow) {
  return {
    run_id: r.runId,
    scheduled_at: iso(r.scheduledAt),
    started_at: r.startedAt.toISOString(),
    ended_at: iso(r.endedAt),
    outcome: r.outcome,
    job_id: r.jobId,
    reason: r.reason,
  };
}

/** A schedule as stored, with what Temporal says now (paused, note, next fire times, running runs). */
export async function scheduleView(deps: AppDeps, row: ScheduleRow, withRuns = false): Promise<ScheduleView> {
  const [d, runs] = await Promise.all([
    describe(deps, row),
    withRuns ? listRuns(deps.store.db, row.scheduleId, 20) : Promise.resolve(undefined),
  ]);
  const recent = d?.info.recentActions ?? [];
  const last = recent.length ? recent[recent.length - 1].scheduledAt : null;
  return {
    schedule_id: row.scheduleId,
    name: row.name,
    kind: row.kind as ScheduleKind,
    target: row.target as 'temporal' | 'databricks-jobs',
    external_job_id: row.externalJobId,
    status: row.status,
    paused: d ? d.state.paused : null,
    note: d?.state.note ?? null,
    spec: row.spec,
    clone_options: row.cloneRequest,
    drift_check: row.driftCheck,
    max_runs: row.maxRuns,
    clones: row.clones,
    skipped: row.skipped,
    failed: row.failed,
    running: (d?.info.runningActions ?? []).map((a) => a.workflow.workflowId),
    next_run_times:
      row.status === 'ended' || d?.state.paused ? [] : (d?.info.nextActionTimes ?? []).map((t) => t.toISOString()),
    last_run_at: iso(last),
    last_clone_job_id: row.lastCloneJobId,
    last_clone_started_at: iso(row.lastCloneStartedAt),
    last_clone_completed_at: iso(row.lastCloneCompletedAt),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    ...(runs ? { recent_runs: runs.map(runView) } : {}),
  };
}

export async function listScheduleViews(deps: AppDeps, kind: ScheduleKind): Promise<ScheduleView[]> {
  const rows = await listSchedules(deps.store.db, kind);
  return Promise.all(rows.map((r) => scheduleView(deps, r)));
}
