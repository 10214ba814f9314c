import { Context } from '@temporalio/activity';
import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import type { Config } from '../../config/load';
import type { WorkspaceResolver } from '../../platform/workspace-resolver';
import type { ActionResult } from '../../schemas/automation';
import type { Store } from '../../store/db';
import { eventsAfter } from '../../store/automation/events';
import {
  beginExecution,
  dispatchCursor,
  getExecution,
  getPlaybook,
  listPlaybooks,
  saveDispatchCursor,
  setActionResult,
  setExecution,
} from '../../store/automation/repo';
import type { BegunExecution, PlaybookExecutionInput } from '../../workflows/automation/definitions';
import { PLAYBOOK_WORKFLOW_TYPE, executionIdOf } from './logic/names';
import { performAction } from './actions';
import { checkCondition, evaluateCondition } from './logic/conditions';
import { EVENT_TYPES_WITH_TRIGGER, TRIGGER_OF_EVENT, eventEnvelope, knownFields } from './logic/event-shape';
import { triggerMatches, type TriggerSpec } from './logic/match';
import { executionOutcome, renderParams } from './logic/render';
import type { AutomationServices } from './services';

export type { AutomationServices } from './services';

export interface AutomationActivityDeps {
  config: Config;
  store: Store;
  client: Client;
  workspaces: WorkspaceResolver;
  services?: AutomationServices;
}

const pending = (a: { type: ActionResult['type'] }): ActionResult => ({
  type: a.type,
  status: 'pending',
  attempts: 0,
  output: null,
  error: null,
});

export function createAutomationActivities(deps: AutomationActivityDeps) {
  const db = deps.store.db;
  return {
    /**
     * One dispatcher pass: every event after the stored cursor is matched against the enabled playbooks of its
     * trigger (an event older than the playbook does not fire it), and each match starts its execution with
     * the id `playbook-<id>-<event_id>` under REJECT_DUPLICATE — a replayed or repeated pass never starts one
     * twice. The cursor is saved after the starts, so a crash between them only repeats refused starts.
     */
    async dispatchEvents(input: {
      dispatcherId: string;
      taskQueue: string;
    }): Promise<{ events: number; started: number }> {
      const cursor = await dispatchCursor(db, input.dispatcherId);
      const events = await eventsAfter(db, cursor, EVENT_TYPES_WITH_TRIGGER, 200);
      if (!events.length) return { events: 0, started: 0 };
      const triggers = [...new Set(events.map((e) => TRIGGER_OF_EVENT[e.type]))];
      const books = await listPlaybooks(db, { enabled: true, triggerTypes: triggers });
      let started = 0;
      for (const e of events) {
        const event = eventEnvelope(e);
        for (const p of books) {
          if (e.createdAt < p.createdAt) continue;
          if (!triggerMatches(p as unknown as TriggerSpec, event)) continue;
          const executionId = executionIdOf(p.playbookId, e.id);
          const args: PlaybookExecutionInput[] = [
            {
              executionId,
              playbookId: p.playbookId,
              trigger: e.type,
              eventId: e.id,
              event,
              dryRun: false,
              bypass: false,
            },
          ];
          try {
            await deps.client.workflow.start(PLAYBOOK_WORKFLOW_TYPE, {
              workflowId: executionId,
              taskQueue: input.taskQueue,
              args,
              workflowIdReusePolicy: 'REJECT_DUPLICATE',
            });
            started++;
          } catch (err) {
            if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
          }
        }
      }
      await saveDispatchCursor(db, input.dispatcherId, events[events.length - 1].id);
      return { events: events.length, started };
    },

    /**
     * Creates the execution row: not_matched when the condition is false (or fails on this event), rate_limited
     * over the playbook's hourly limit (taken under its row lock), else queued → running with each action's
     * parameters rendered from the event. Idempotent: a retry finds the row it wrote.
     */
    async beginPlaybookExecution(input: PlaybookExecutionInput): Promise<BegunExecution> {
      const playbook = await getPlaybook(db, input.playbookId);
      const maxAttempts = deps.config.automation.webhooks.max_attempts;
      if (!playbook) return { status: 'failed', actions: [], params: [], webhookMaxAttempts: maxAttempts };
      let status: 'queued' | 'not_matched' = 'queued';
      let conditionError: string | null = null;
      if (!input.bypass) {
        const verdict = evaluateCondition(playbook.conditions, input.event);
        if (verdict !== true) status = 'not_matched';
        if (typeof verdict === 'object') conditionError = `condition: ${verdict.error}`;
      }
      const row = await beginExecution(db, {
        executionId: input.executionId,
        playbook,
        trigger: input.trigger,
        eventId: input.eventId,
        event: input.event,
        status,
        dryRun: input.dryRun,
        actions: playbook.actions.map(pending),
        bypassLimit: input.bypass,
        now: new Date(),
      });
      if (conditionError && row.status === 'not_matched')
        await setExecution(db, row.executionId, { error: conditionError });
      if (row.status === 'queued') await setExecution(db, row.executionId, { status: 'running' });
      const status_ = row.status === 'queued' ? 'running' : (row.status as BegunExecution['status']);
      return {
        status: status_,
        actions: playbook.actions,
        params: playbook.actions.map((a) => renderParams(a.params, input.event) as Record<string, unknown>),
        webhookMaxAttempts: maxAttempts,
      };
    },

    /** Performs one action (each attempt counted on the execution row as it starts). */
    async runPlaybookAction(input: {
      executionId: string;
      playbookId: string;
      index: number;
      params: Record<string, unknown>;
      event: Record<string, unknown>;
      webhookId: string;
    }): Promise<Record<string, unknown>> {
      const row = await getExecution(db, input.executionId);
      const action = (await getPlaybook(db, input.playbookId))?.actions[input.index];
      if (!row || !action) throw new Error(`execution ${input.executionId} or its action ${input.index} is gone`);
      const attempt = Context.current().info.attempt;
      await setActionResult(db, input.executionId, input.index, { status: 'running', attempts: attempt });
      try {
        const output = await performAction(deps, { ...input, action });
        return output;
      } catch (err) {
        const status = (err as { details?: unknown[] }).details?.[0];
        await setActionResult(db, input.executionId, input.index, {
          error: (err as Error).message,
          output: typeof status === 'number' ? { status_code: status, webhook_id: input.webhookId } : null,
        });
        throw err;
      }
    },

    async recordPlaybookAction(input: { executionId: string; index: number; result: Partial<ActionResult> }) {
      await setActionResult(db, input.executionId, input.index, input.result);
    },

    /** The execution's end from its actions (succeeded, partial or failed). */
    async finishPlaybookExecution(input: { executionId: string; error?: string | null }): Promise<string> {
      const row = await getExecution(db, input.executionId);
      if (!row) return 'failed';
      if (row.completedAt) return row.status;
      const status = input.error ? 'failed' : executionOutcome(row.actions);
      await setExecution(db, input.executionId, { status, completedAt: new Date(), error: input.error ?? row.error });
      return status;
    },
  };
}

export type AutomationActivities = ReturnType<typeof createAutomationActivities>;

export { checkCondition, knownFields };
