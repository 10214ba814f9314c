import { randomBytes } from 'node:crypto';
import { ScheduleNotFoundError } from '@temporalio/client';
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
  PLAYBOOK_SCHEDULED_WORKFLOW_TYPE,
  PLAYBOOK_WORKFLOW_TYPE,
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

/** A schedule-triggered playbook has a Temporal Schedule; any other has none (a changed trigger removes it). */
async function syncSchedule(deps: AppDeps, p: PlaybookRow): Promise<void> {
  const client = temporal(deps);
  const handle = client.schedule.getHandle(playbookScheduleId(p.playbookId));
  await handle.delete().catch((err: unknown) => {
    if (!(err instanceof ScheduleNotFoundError)) throw err;
  });
  if (p.triggerType !== 'schedule') return;
  const c = p.triggerConfig as { cron: string; timezone?: string };
  await client.schedule.create({
    scheduleId: playbookScheduleId(p.playbookId),
    spec: scheduleSpecOf({ cron: c.cron, timezone: c.timezone }, 'trigger_config.cron'),
    action: {
      type: 'startWorkflow',
      workflowType: PLAYBOOK_SCHEDULED_WORKFLOW_TYPE,
      taskQueue: deps.config.temporal.task_queue,
      args: [{ playbookId: p.playbookId }],
    },
    policies: { overlap: 'SKIP' },
    state: { paused: !p.enabled },
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
  if (row.triggerType === 'schedule') {
    await temporal(deps)
      .schedule.getHandle(playbookScheduleId(id))
      .delete()
      .catch((err: unknown) => {
        if (!(err instanceof ScheduleNotFoundError)) throw err;
      });
  }
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
