import {
  ScheduleAlreadyRunning,
  ScheduleNotFoundError,
  type ScheduleHandle,
  type ScheduleSpec,
} from '@temporalio/client';
import { cronToCalendars, CronTranslationError, intervalMs } from '../../activities/schedules/logic/cron';
import type { CloneRequestInput } from '../../schemas/clone';
import type { ScheduleConfig } from '../../schemas/schedules';
import {
  deleteSchedule,
  getSchedule,
  getScheduleByName,
  insertSchedule,
  updateSchedule,
  type ScheduleRow,
} from '../../store/schedules/repo';
import {
  SCHEDULED_CLONE_WORKFLOW_TYPE,
  scheduleIdOf,
  type ScheduledCloneInput,
} from '../../workflows/schedules/definitions';
import type { AppDeps } from '../deps';
import { buildCloneJob } from '../clone/build-input';
import { JobInputError } from '../clone/errors';
import { HttpError, badRequest, conflict, notFound } from '../middleware/http-error';

/** Missed runs older than this (API or Temporal down) are not caught up; at most one runs (overlap SKIP). */
const CATCHUP_WINDOW = 10 * 60_000;

export type ScheduleKind = 'schedule' | 'job';

/** What a Temporal Schedule fires on, from a cron expression or an interval. 400 naming `field` when invalid. */
export function scheduleSpecOf(
  when: { cron?: string; quartz?: string; interval?: string; timezone?: string },
  field: string,
): ScheduleSpec {
  const timezone = when.timezone && when.timezone !== 'UTC' ? when.timezone : undefined;
  if (timezone && !validTimeZone(timezone))
    throw badRequest(`unknown time zone ${timezone}`, [
      { path: field.replace(/[^.]+$/, 'timezone'), message: 'not an IANA time zone' },
    ]);
  if (when.interval) {
    const every = intervalMs(when.interval);
    if (!every) throw badRequest(`bad interval`, [{ path: field, message: 'an interval like 15m, 1h, 6h or 1d' }]);
    return { intervals: [{ every }] };
  }
  const expr = (when.quartz ?? when.cron)!;
  // A 5-field expression is standard cron; 6 or 7 fields (seconds first, optional year) are read as Quartz.
  const dialect = when.quartz || expr.trim().split(/\s+/).length > 5 ? 'quartz' : 'standard';
  try {
    return { calendars: cronToCalendars(expr, dialect), timezone };
  } catch (err) {
    if (!(err instanceof CronTranslationError)) throw err;
    throw badRequest(err.message, [{ path: field, message: err.message }]);
  }
}

function validTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

const SECRET_KEYS = ['token', 'client_secret', 'client_id'];

/**
 * The clone request a schedule stores and submits at every run: checked like POST /api/clone (template, names,
 * source catalog) now, so a bad request fails at creation and not at 3 a.m. Inline target credentials are
 * refused: the request is stored, so targets must be saved connections (`target_workspace: {name}`).
 */
async function checkCloneRequest(deps: AppDeps, request: CloneRequestInput, prefix: string): Promise<void> {
  const targets = [
    ...(request.target_workspaces ?? []),
    ...(request.target_workspace ? [request.target_workspace] : []),
  ];
  for (const t of targets) {
    const secret = SECRET_KEYS.find((k) => (t as Record<string, unknown>)[k] !== undefined);
    if (secret) {
      const message = 'a schedule stores its clone request: name a saved target connection instead of credentials';
      throw badRequest(message, [{ path: `${prefix}.target_workspace.${secret}`, message }]);
    }
  }
  await buildCloneJob(deps, request, 'schedule-check', new Date()).catch((err: unknown) => {
    if (err instanceof HttpError) {
      // The clone checks name fields of a top-level clone request (body.<field>): here they sit under prefix.
      const details = err.details.map((d) => ({ ...d, path: d.path.replace(/^body\b/, prefix) }));
      throw new HttpError(err.status, err.code, err.message, details);
    }
    if (!(err instanceof JobInputError)) throw err;
    const own = 'status' in err && typeof err.status === 'number' ? err.status : undefined;
    const status = own ?? (err.field.startsWith('workspace.') ? 422 : 400);
    throw new HttpError(status, status === 404 ? 'NOT_FOUND' : 'VALIDATION_ERROR', err.message, [
      { path: `${prefix}.${err.field}`, message: err.message },
    ]);
  });
}

function temporalOf(deps: AppDeps) {
  if (!deps.temporal) throw new HttpError(503, 'TEMPORAL_UNAVAILABLE', 'Temporal is not configured; no schedules');
  return deps.temporal.client;
}

export interface ScheduleDraft {
  kind: ScheduleKind;
  name: string;
  spec: Record<string, unknown>;
  when: ScheduleSpec;
  enabled: boolean;
  request: CloneRequestInput;
  driftCheck: boolean;
  maxRuns: number;
  target?: 'temporal' | 'databricks-jobs';
  /** Where the clone request sits in the body (error paths). */
  requestPath: string;
}

function scheduleOptions(deps: AppDeps, scheduleId: string, draft: ScheduleDraft) {
  const args: [ScheduledCloneInput] = [{ scheduleId }];
  return {
    spec: draft.when,
    action: {
      type: 'startWorkflow' as const,
      workflowType: SCHEDULED_CLONE_WORKFLOW_TYPE,
      workflowId: scheduleId,
      taskQueue: deps.config.temporal.task_queue,
      args,
    },
    policies: { overlap: 'SKIP' as const, catchupWindow: CATCHUP_WINDOW },
  };
}

/** Creates a schedule: its row, then its Temporal Schedule (the row goes again when Temporal refuses). */
export async function createSchedule(deps: AppDeps, draft: ScheduleDraft): Promise<ScheduleRow> {
  const client = draft.target === 'databricks-jobs' ? null : temporalOf(deps);
  const scheduleId = scheduleIdOf(draft.kind, draft.name);
  if (await getScheduleByName(deps.store.db, draft.name))
    throw conflict(`a schedule named ${draft.name} exists (update it with PUT /api/schedule/${scheduleId})`);
  await checkCloneRequest(deps, draft.request, draft.requestPath);
  const row = await insertSchedule(deps.store.db, {
    scheduleId,
    name: draft.name,
    kind: draft.kind,
    spec: draft.spec,
    cloneRequest: draft.request as unknown as Record<string, unknown>,
    driftCheck: draft.driftCheck,
    maxRuns: draft.maxRuns,
    target: draft.target ?? 'temporal',
    status: draft.enabled ? 'active' : 'paused',
  });
  if (!client) return row;
  try {
    await client.schedule.create({
      scheduleId,
      ...scheduleOptions(deps, scheduleId, draft),
      state: draft.enabled ? {} : { paused: true, note: 'created disabled (schedule.enabled false)' },
      memo: { name: draft.name, kind: draft.kind },
    });
  } catch (err) {
    await deleteSchedule(deps.store.db, scheduleId);
    if (err instanceof ScheduleAlreadyRunning)
      throw conflict(`Temporal already has a Schedule ${scheduleId}; delete it first`);
    throw err;
  }
  return row;
}

/** Replaces a schedule's configuration (its counters and drift baseline stay). */
export async function updateScheduleConfig(
  deps: AppDeps,
  row: ScheduleRow,
  draft: ScheduleDraft,
): Promise<ScheduleRow> {
  await checkCloneRequest(deps, draft.request, draft.requestPath);
  if (row.target === 'temporal') {
    const opts = scheduleOptions(deps, row.scheduleId, draft);
    await handleOf(deps, row.scheduleId).update((prev) => ({
      ...prev,
      spec: opts.spec,
      action: opts.action,
      policies: { ...prev.policies, ...opts.policies },
      state: {
        ...prev.state,
        paused: !draft.enabled,
        note: draft.enabled ? 'updated' : 'updated with schedule.enabled false',
      },
    }));
  }
  const status = row.status === 'ended' ? 'ended' : draft.enabled ? 'active' : 'paused';
  return (await updateSchedule(deps.store.db, row.scheduleId, {
    spec: draft.spec,
    cloneRequest: draft.request as unknown as Record<string, unknown>,
    driftCheck: draft.driftCheck,
    maxRuns: draft.maxRuns,
    status,
  }))!;
}

/** A schedule row from POST /api/schedule's configuration. */
export function draftOf(config: ScheduleConfig, name?: string): ScheduleDraft {
  const s = config.schedule;
  const request: CloneRequestInput = {
    ...config.clone_options,
    ...(config.template && !config.clone_options.template ? { template: config.template } : {}),
  };
  const field = s.interval ? 'body.schedule.interval' : 'body.schedule.cron';
  return {
    kind: 'schedule',
    name: name ?? config.name ?? `${request.source_catalog}-to-${request.destination_catalog}`,
    spec: { schedule: s, template: config.template ?? null, notifications: config.notifications ?? {} },
    when: scheduleSpecOf({ cron: s.cron, interval: s.interval, timezone: s.timezone }, field),
    enabled: s.enabled,
    request,
    driftCheck: s.drift_check,
    maxRuns: s.max_runs,
    requestPath: 'body.clone_options',
  };
}

export function handleOf(deps: AppDeps, scheduleId: string): ScheduleHandle {
  return temporalOf(deps).schedule.getHandle(scheduleId);
}

export async function requireSchedule(deps: AppDeps, scheduleId: string, kind?: ScheduleKind): Promise<ScheduleRow> {
  const row = await getSchedule(deps.store.db, scheduleId);
  if (!row || (kind && row.kind !== kind))
    throw notFound(`No ${kind === 'job' ? 'scheduled job' : 'schedule'} ${scheduleId}`);
  return row;
}

export async function pauseSchedule(deps: AppDeps, row: ScheduleRow, note?: string) {
  await handleOf(deps, row.scheduleId).pause(note ?? 'paused through the API');
  if (row.status !== 'ended') await updateSchedule(deps.store.db, row.scheduleId, { status: 'paused' });
  return { schedule_id: row.scheduleId, status: 'paused', message: `Schedule ${row.name} paused` };
}

export async function resumeSchedule(deps: AppDeps, row: ScheduleRow, note?: string) {
  if (row.status === 'ended')
    throw conflict(`schedule ${row.name} ended (max_runs ${row.maxRuns} reached); raise max_runs to resume it`);
  await handleOf(deps, row.scheduleId).unpause(note ?? 'resumed through the API');
  await updateSchedule(deps.store.db, row.scheduleId, { status: 'active' });
  return { schedule_id: row.scheduleId, status: 'active', message: `Schedule ${row.name} resumed` };
}

/**
 * Runs the schedule now. Nothing starts while a run is going, but an asked-for run is not dropped: it starts when
 * that run ends (BUFFER_ONE). A run is recorded `completed` a moment before its workflow closes, and the Temporal
 * Schedule learns of the close later still, so with SKIP a "run now" sent right after a run read as completed was
 * silently skipped.
 */
export async function triggerSchedule(deps: AppDeps, row: ScheduleRow) {
  await handleOf(deps, row.scheduleId).trigger('BUFFER_ONE');
  return { schedule_id: row.scheduleId, status: 'triggered', message: `Schedule ${row.name} triggered` };
}

export async function removeSchedule(deps: AppDeps, row: ScheduleRow) {
  if (row.target === 'temporal') {
    try {
      await handleOf(deps, row.scheduleId).delete();
    } catch (err) {
      if (!(err instanceof ScheduleNotFoundError)) throw err;
    }
  }
  await deleteSchedule(deps.store.db, row.scheduleId);
  return { schedule_id: row.scheduleId, status: 'deleted', message: `Schedule ${row.name} deleted` };
}
