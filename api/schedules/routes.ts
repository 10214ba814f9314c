import { z } from 'zod';
import {
  PauseBodySchema,
  ScheduleActionSchema,
  ScheduleConfigSchema,
  ScheduleIdParamsSchema,
  ScheduleRunSchema,
  ScheduleViewSchema,
} from '../../schemas/schedules';
import { listRuns } from '../../store/schedules/repo';
import { assertCloneAllowed } from '../governance/clone-access';
import { callerOf } from '../middleware/auth';
import { defineRoutes, route } from '../middleware/route';
import { badRequest } from '../middleware/http-error';
import { jobRoutes } from './job-routes';
import {
  createSchedule,
  draftOf,
  pauseSchedule,
  removeSchedule,
  requireSchedule,
  resumeSchedule,
  triggerSchedule,
  updateScheduleConfig,
} from './service';
import { listScheduleViews, runView, scheduleView } from './view';

const byId = { params: ScheduleIdParamsSchema };
const TEMPORAL_DOWN = { 503: 'Temporal is not configured or not reachable' };
const viewed = { description: 'The schedule', schema: ScheduleViewSchema };
const action = { description: 'What was done', schema: ScheduleActionSchema };

/**
 * Clone schedules on Temporal Schedules: POST/GET /api/schedule, GET/PUT/DELETE /api/schedule/{schedule_id},
 * POST /api/schedule/{schedule_id}/pause|resume|trigger, GET /api/schedule/{schedule_id}/runs; and the
 * persistent scheduled jobs of /api/generate (job-routes.ts).
 */
export const scheduleRoutes = defineRoutes({
  name: 'schedules',
  routes: [
    route({
      method: 'post',
      path: '/schedule',
      summary: 'Create a clone schedule (a Temporal Schedule whose runs submit clone jobs)',
      request: { body: ScheduleConfigSchema },
      response: { ...viewed, status: 201 },
      errors: {
        403: 'An access policy refuses the clone (names the rule)',
        404: 'The source catalog does not exist',
        409: 'A schedule with this name exists',
        ...TEMPORAL_DOWN,
      },
      handler: async ({ deps, input, req }) => {
        await assertCloneAllowed(deps, callerOf(req), input.body.clone_options);
        return scheduleView(deps, await createSchedule(deps, draftOf(input.body)));
      },
    }),
    route({
      method: 'get',
      path: '/schedule',
      summary: 'Clone schedules with their next and last run times and run counts',
      response: { description: 'Schedules', schema: z.array(ScheduleViewSchema) },
      handler: ({ deps }) => listScheduleViews(deps, 'schedule'),
    }),
    route({
      method: 'get',
      path: '/schedule/:scheduleId',
      summary: 'One schedule with its recent runs',
      request: byId,
      response: viewed,
      errors: { 404: 'Unknown schedule' },
      handler: async ({ deps, input }) =>
        scheduleView(deps, await requireSchedule(deps, input.params.scheduleId, 'schedule'), true),
    }),
    route({
      method: 'put',
      path: '/schedule/:scheduleId',
      summary: 'Replace a schedule configuration (run counts and the drift baseline stay)',
      request: { ...byId, body: ScheduleConfigSchema },
      response: viewed,
      errors: {
        403: 'An access policy refuses the clone (names the rule)',
        404: 'Unknown schedule or source catalog',
        ...TEMPORAL_DOWN,
      },
      handler: async ({ deps, input, req }) => {
        const row = await requireSchedule(deps, input.params.scheduleId, 'schedule');
        await assertCloneAllowed(deps, callerOf(req), input.body.clone_options);
        if (input.body.name && input.body.name !== row.name)
          throw badRequest('a schedule keeps its name', [{ path: 'body.name', message: `must be ${row.name}` }]);
        return scheduleView(deps, await updateScheduleConfig(deps, row, draftOf(input.body, row.name)));
      },
    }),
    route({
      method: 'delete',
      path: '/schedule/:scheduleId',
      summary: 'Delete a schedule (a run already going finishes; no new runs start)',
      request: byId,
      response: action,
      errors: { 404: 'Unknown schedule', ...TEMPORAL_DOWN },
      handler: async ({ deps, input }) =>
        removeSchedule(deps, await requireSchedule(deps, input.params.scheduleId, 'schedule')),
    }),
    route({
      method: 'post',
      path: '/schedule/:scheduleId/pause',
      summary: 'Pause a schedule (no new runs start until it is resumed)',
      request: { ...byId, body: PauseBodySchema },
      response: action,
      errors: { 404: 'Unknown schedule', ...TEMPORAL_DOWN },
      handler: async ({ deps, input }) =>
        pauseSchedule(deps, await requireSchedule(deps, input.params.scheduleId), input.body?.note),
    }),
    route({
      method: 'post',
      path: '/schedule/:scheduleId/resume',
      summary: 'Resume a paused schedule',
      request: { ...byId, body: PauseBodySchema },
      response: action,
      errors: { 404: 'Unknown schedule', 409: 'The schedule ended (max_runs reached)', ...TEMPORAL_DOWN },
      handler: async ({ deps, input }) =>
        resumeSchedule(deps, await requireSchedule(deps, input.params.scheduleId), input.body?.note),
    }),
    route({
      method: 'post',
      path: '/schedule/:scheduleId/trigger',
      summary: 'Run a schedule now (after the run of it still going, if one is)',
      request: byId,
      response: action,
      errors: { 404: 'Unknown schedule', ...TEMPORAL_DOWN },
      handler: async ({ deps, input }) => triggerSchedule(deps, await requireSchedule(deps, input.params.scheduleId)),
    }),
    route({
      method: 'get',
      path: '/schedule/:scheduleId/runs',
      summary: 'Runs of a schedule, newest first: outcome (skipped, completed, failed, …), clone job and reason',
      request: byId,
      response: { description: 'Runs', schema: z.array(ScheduleRunSchema) },
      errors: { 404: 'Unknown schedule' },
      handler: async ({ deps, input }) => {
        const row = await requireSchedule(deps, input.params.scheduleId);
        return (await listRuns(deps.store.db, row.scheduleId, 200)).map(runView);
      },
    }),
    ...jobRoutes,
  ],
});
