import { randomBytes } from 'node:crypto';
import { ScheduleNotFoundError, WorkflowNotFoundError } from '@temporalio/client';
import { syntheticEvent } from '../../activities/automation/logic/event-shape';
import type { Execution, PlaybookBody } from '../../schemas/automation';
import {
  deletePlaybook,
  getExecution,
  getPlaybook,
  insertPlaybook,
  updatePlaybook,
  type ExecutionRow,
  type PlaybookRow,
} from '../../store/automation/repo';
import {
  PLAYBOOK_CRON_WORKFLOW_TYPE,
  PLAYBOOK_WORKFLOW_TYPE,
  playbookCronWorkflowId,
  playbookScheduleId,
  type PlaybookExecutionInput,
} from '../../workflows/automation/definitions';
import type { AppDeps } from '../deps';
import { currentCaller } from '../middleware/auth';
import { HttpError, notFound } from '../middleware/http-error';
import { scheduleSpecOf } from '../schedules/service';
import { ensureDispatcher } from './dispatcher';
import { checkTriggerConfig, compileConditions, prepareActions, shownAction } from './validate';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

function temporal(deps: AppDeps) {
  if (!deps.temporal) throw new HttpError(503, 'TEMPORAL_UNAVAILABLE', 'Temporal is not configured; playbooks need it');
  return deps.temporal.client;
}

export function playbookView(p: PlaybookRow) {
  return {
    playbook_id: p.playbookId,
    name: p.name,
    description: p.description,
    trigger_type: p.triggerType as PlaybookBody['trigger_type'],
    trigger_config: p.triggerConfig,
    conditions: p.conditions,
    actions: p.actions.map(shownAction),
    max_executions_per_hour: p.maxExecutionsPerHour,
    enabled: p.enabled,
    created_by: p.createdBy,
    created_at: p.createdAt.toISOString(),
    updated_at: p.updatedAt.toISOString(),
  };
}

export function executionView(e: ExecutionRow): Execution {
  return {
    execution_id: e.executionId,
    playbook_id: e.playbookId,
    playbook_name: e.playbookName,
    trigger: e.trigger,
    event_id: e.eventId === null ? null : String(e.eventId),
    event: e.event,
    status: e.status as Execution['status'],
    dry_run: e.dryRun,
    actions: e.actions,
    error: e.error,
    started_at: e.startedAt.toISOString(),
    completed_at: iso(e.completedAt),
  };
}

export async function requirePlaybook(deps: AppDeps, id: string): Promise<PlaybookRow> {
  const row = await getPlaybook(deps.store.db, id);
  if (!row) throw notFound(`No playbook ${id}`);
  return row;
}

function checked(deps: AppDeps, body: PlaybookBody, previous?: PlaybookRow) {
  return {
    name: body.name,
    description: body.description,
    triggerType: body.trigger_type,
    triggerConfig: checkTriggerConfig(body.trigger_type, body.trigger_config),
    conditions: compileConditions(body.trigger_type, body.conditions),
    actions: prepareActions(deps, body.actions, previous),
    maxExecutionsPerHour: body.max_executions_per_hour,
    enabled: body.enabled,
  };
}

/**
 * A schedule-triggered playbook that is enabled has its cron workflow `playbook-cron-<id>` (durable timers to each
 * firing); any other has none. A save stops the previous one and starts one for the new cron, so a changed cron,
 * timezone or trigger takes effect at once. A Temporal Schedule left by earlier versions is removed.
 */
async function syncSchedule(deps: AppDeps, p: PlaybookRow): Promise<void> {
  const client = temporal(deps);
  await client.schedule
    .getHandle(playbookScheduleId(p.playbookId))
    .delete()
    .catch((err: unknown) => {
      if (!(err instanceof ScheduleNotFoundError) && !unimplemented(err)) throw err;
    });
  await stopCron(deps, p.playbookId);
  if (p.triggerType !== 'schedule' || !p.enabled) return;
  const c = p.triggerConfig as { cron: string; timezone?: string };
  scheduleSpecOf({ cron: c.cron, timezone: c.timezone }, 'trigger_config.cron'); // a 422 for a cron it refuses
  await client.workflow.start(PLAYBOOK_CRON_WORKFLOW_TYPE, {
    workflowId: playbookCronWorkflowId(p.playbookId),
    taskQueue: deps.config.temporal.task_queue,
    args: [{ playbookId: p.playbookId, cron: c.cron, timezone: c.timezone }],
    workflowIdConflictPolicy: 'TERMINATE_EXISTING',
  });
}

/** gRPC UNIMPLEMENTED: a server without the Schedule API (the time-skipping test server) has no Schedule to remove. */
const unimplemented = (err: unknown) =>
  [err as { code?: unknown }, (err as { cause?: { code?: unknown } }).cause].some((e) => e?.code === 12);

async function stopCron(deps: AppDeps, playbookId: string): Promise<void> {
  await temporal(deps)
    .workflow.getHandle(playbookCronWorkflowId(playbookId))
    .terminate('the playbook changed')
    .catch((err: unknown) => {
      if (!(err instanceof WorkflowNotFoundError)) throw err;
    });
}

export async function createPlaybook(deps: AppDeps, body: PlaybookBody) {
  const values = checked(deps, body);
  const row = await insertPlaybook(deps.store.db, {
    playbookId: randomBytes(6).toString('hex'),
    createdBy: currentCaller().name,
    ...values,
  });
  if (row.triggerType === 'schedule') await syncSchedule(deps, row);
  else if (deps.temporal) await ensureDispatcher(deps.temporal.client, deps.config.temporal.task_queue);
  return row;
}

export async function replacePlaybook(deps: AppDeps, id: string, body: PlaybookBody) {
  const previous = await requirePlaybook(deps, id);
  const row = (await updatePlaybook(deps.store.db, id, checked(deps, body, previous)))!;
  if (row.triggerType === 'schedule' || previous.triggerType === 'schedule') await syncSchedule(deps, row);
  return row;
}

export async function removePlaybook(deps: AppDeps, id: string) {
  const row = await requirePlaybook(deps, id);
  if (row.triggerType === 'schedule') await syncSchedule(deps, { ...row, triggerType: 'deleted' });
  await deletePlaybook(deps.store.db, id);
}

/** Runs a playbook now, whatever its trigger, condition and hourly limit (trigger `manual`), and waits for it. */
export async function executePlaybook(
  deps: AppDeps,
  id: string,
  body: { event?: Record<string, unknown>; dry_run: boolean },
): Promise<Execution> {
  const p = await requirePlaybook(deps, id);
  const client = temporal(deps);
  const executionId = `playbook-${p.playbookId}-manual-${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  const event = syntheticEvent('manual', body.event ?? {}, new Date().toISOString());
  const input: PlaybookExecutionInput = {
    executionId,
    playbookId: p.playbookId,
    trigger: 'manual',
    eventId: null,
    event,
    dryRun: body.dry_run,
    bypass: true,
  };
  await client.workflow.execute(PLAYBOOK_WORKFLOW_TYPE, {
    workflowId: executionId,
    taskQueue: deps.config.temporal.task_queue,
    args: [input],
  });
  return executionView((await getExecution(deps.store.db, executionId))!);
}
