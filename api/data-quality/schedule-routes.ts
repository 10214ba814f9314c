import { ScheduleNotFoundError } from '@temporalio/client';
import { z } from 'zod';
import { cronToCalendars, CronTranslationError } from '../../activities/schedules/logic/cron';
import { DqScheduleSchema, IdParamsSchema, ScheduleCreateSchema } from '../../schemas/data-quality-ops';
import {
  createSchedule,
  deleteSchedule,
  getSchedule,
  listSchedules,
  setScheduleStatus,
  type DqScheduleRow,
} from '../../store/data-quality/ops';
import type { AppDeps } from '../deps';
import { HttpError } from '../middleware/http-error';
import { route } from '../middleware/route';
import { actorOf } from './checks-service';
import { newId } from './ops-service';

const DQ = '/data-quality/schedules';
/** The workflow each firing starts (workflows/data-quality/schedule-workflow). */
const DQ_SCHEDULED_RUN_WORKFLOW = 'dqScheduledRunWorkflow';

/** The Temporal Schedule of a DQ schedule. */
export const temporalScheduleId = (id: string) => `dq-schedule-${id}`;

function temporal(deps: AppDeps) {
  if (!deps.temporal)
    throw new HttpError(503, 'TEMPORAL_UNAVAILABLE', 'Temporal is not configured; DQ schedules cannot run');
  return deps.temporal.client;
}

/** Standard 5-field cron as Temporal calendars (croner validates); 400 naming body.cron otherwise. */
function calendarsOf(cron: string) {
  const fields = cron.trim().split(/\s+/);
  const bad = (message: string) =>
    new HttpError(400, 'VALIDATION_ERROR', `body.cron: ${message}`, [{ path: 'body.cron', message }]);
  if (fields.length !== 5) throw bad(`"${cron}" must have 5 fields (minute hour day-of-month month day-of-week)`);
  try {
    return cronToCalendars(cron, 'standard');
  } catch (err) {
    if (err instanceof CronTranslationError || err instanceof Error) throw bad(err.message);
    throw err;
  }
}

async function requireSchedule(deps: AppDeps, id: string) {
  const s = await getSchedule(deps.store.db, id);
  if (!s)
    throw new HttpError(404, 'NOT_FOUND', `No DQ schedule ${id}`, [{ path: 'params.id', message: 'no such schedule' }]);
  return s;
}

/** The row with last and next run from Temporal (the Schedule's recent actions and next action times). */
async function scheduleView(deps: AppDeps, s: DqScheduleRow) {
  let lastAt: string | null = null;
  let lastId: string | null = null;
  let lastStatus: string | null = null;
  let next: string | null = null;
  if (deps.temporal) {
    const client = deps.temporal.client;
    const d = await client.schedule
      .getHandle(temporalScheduleId(s.scheduleId))
      .describe()
      .catch((err: unknown) => (err instanceof ScheduleNotFoundError ? null : Promise.reject(err)));
    const last = d?.info.recentActions.at(-1);
    if (last) {
      lastAt = last.takenAt.toISOString();
      lastId = last.action.workflow.workflowId;
      lastStatus = (await client.workflow.getHandle(lastId).describe()).status.name;
    }
    next = d?.info.nextActionTimes[0]?.toISOString() ?? null;
  }
  return {
    id: s.scheduleId,
    schedule_id: s.scheduleId,
    name: s.name,
    schedule_type: s.scheduleType,
    table_fqn: s.tableFqn,
    suite_id: s.suiteId,
    check_ids: s.checkIds,
    cron: s.cron,
    status: s.status as 'active' | 'paused',
    last_run_at: lastAt,
    last_run_id: lastId,
    last_run_status: lastStatus,
    next_run_at: next,
    created_by: s.createdBy,
    created_at: s.createdAt.toISOString(),
  };
}

const stateChange = (verb: 'pause' | 'resume', from: string, to: string) =>
  route({
    method: 'post',
    path: `${DQ}/:id/${verb}`,
    summary: verb === 'pause' ? 'Pause a DQ schedule (active → paused)' : 'Resume a DQ schedule (paused → active)',
    request: { params: IdParamsSchema },
    response: { description: 'The schedule', schema: DqScheduleSchema },
    errors: { 404: 'No such schedule', 409: `The schedule is not ${from}`, 503: 'Temporal is not configured' },
    handler: async ({ deps, input: { params } }) => {
      const s = await requireSchedule(deps, params.id);
      if (s.status !== from)
        throw new HttpError(
          409,
          'INVALID_TRANSITION',
          `DQ schedule ${s.scheduleId} is ${s.status}: ${verb} needs ${from}`,
        );
      const h = temporal(deps).schedule.getHandle(temporalScheduleId(s.scheduleId));
      await (verb === 'pause' ? h.pause(`paused by ${actorOf(deps)}`) : h.unpause(`resumed by ${actorOf(deps)}`));
      return scheduleView(deps, (await setScheduleStatus(deps.store.db, s.scheduleId, to))!);
    },
  });

export const scheduleRoutes = [
  route({
    method: 'post',
    path: DQ,
    summary: 'Create a DQ schedule (a Temporal Schedule; each firing runs the table, checks, suite or all checks)',
    request: { body: ScheduleCreateSchema },
    response: { status: 201, description: 'The schedule', schema: DqScheduleSchema },
    errors: { 503: 'Temporal is not configured' },
    handler: async ({ deps, input: { body } }) => {
      const calendars = calendarsOf(body.cron);
      const client = temporal(deps);
      const row = await createSchedule(deps.store.db, {
        scheduleId: newId('dqs'),
        name: body.name,
        scheduleType: body.schedule_type,
        tableFqn: body.table_fqn ?? null,
        suiteId: body.suite_id ?? null,
        checkIds: body.check_ids ?? null,
        cron: body.cron.trim(),
        status: 'active',
        createdBy: actorOf(deps),
      });
      try {
        await client.schedule.create({
          scheduleId: temporalScheduleId(row.scheduleId),
          spec: { calendars },
          action: {
            type: 'startWorkflow',
            workflowType: DQ_SCHEDULED_RUN_WORKFLOW,
            workflowId: temporalScheduleId(row.scheduleId),
            taskQueue: deps.config.temporal.task_queue,
            args: [{ scheduleId: row.scheduleId }],
          },
          policies: { overlap: 'SKIP', catchupWindow: '1 minute' },
          memo: { name: row.name, kind: 'dq' },
        });
      } catch (err) {
        await deleteSchedule(deps.store.db, row.scheduleId);
        throw err;
      }
      return scheduleView(deps, row);
    },
  }),
  route({
    method: 'get',
    path: DQ,
    summary: 'DQ schedules with their last run (time, status) and next run, from Temporal',
    response: { description: 'Schedules', schema: z.array(DqScheduleSchema) },
    handler: async ({ deps }) => Promise.all((await listSchedules(deps.store.db)).map((s) => scheduleView(deps, s))),
  }),
  stateChange('pause', 'active', 'paused'),
  stateChange('resume', 'paused', 'active'),
  route({
    method: 'post',
    path: `${DQ}/:id/run`,
    summary: 'Run a DQ schedule now, once (paused or not)',
    request: { params: IdParamsSchema },
    response: {
      status: 202,
      description: 'Triggered; the run shows as last_run',
      schema: z.object({ schedule_id: z.string(), triggered: z.boolean() }),
    },
    errors: { 404: 'No such schedule', 503: 'Temporal is not configured' },
    handler: async ({ deps, input: { params } }) => {
      const s = await requireSchedule(deps, params.id);
      await temporal(deps).schedule.getHandle(temporalScheduleId(s.scheduleId)).trigger('ALLOW_ALL');
      return { schedule_id: s.scheduleId, triggered: true };
    },
  }),
  route({
    method: 'delete',
    path: `${DQ}/:id`,
    summary: 'Delete a DQ schedule and its Temporal Schedule',
    request: { params: IdParamsSchema },
    response: { description: 'Deleted', schema: z.object({ schedule_id: z.string(), deleted: z.boolean() }) },
    errors: { 404: 'No such schedule', 503: 'Temporal is not configured' },
    handler: async ({ deps, input: { params } }) => {
      const s = await requireSchedule(deps, params.id);
      await temporal(deps)
        .schedule.getHandle(temporalScheduleId(s.scheduleId))
        .delete()
        .catch((err: unknown) => (err instanceof ScheduleNotFoundError ? undefined : Promise.reject(err)));
      await deleteSchedule(deps.store.db, s.scheduleId);
      return { schedule_id: s.scheduleId, deleted: true };
    },
  }),
];
