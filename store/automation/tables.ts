import { bigint, boolean, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import type { Action, ActionResult } from '../../schemas/automation';

const tsz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** Playbooks: a trigger, a CEL condition over the event and actions (webhook secrets sealed, never in clear). */
export const playbooks = pgTable('playbooks', {
  playbookId: text('playbook_id').primaryKey(),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  triggerType: text('trigger_type').notNull(),
  triggerConfig: jsonb('trigger_config').$type<Record<string, unknown>>().notNull(),
  /** The CEL expression ('' = always true); legacy `{field, operator, value}` lists are stored compiled. */
  conditions: text('conditions').notNull().default(''),
  actions: jsonb('actions').$type<Action[]>().notNull(),
  maxExecutionsPerHour: integer('max_executions_per_hour').notNull().default(5),
  enabled: boolean('enabled').notNull().default(true),
  createdBy: text('created_by').notNull(),
  createdAt: tsz('created_at').notNull().defaultNow(),
  updatedAt: tsz('updated_at').notNull().defaultNow(),
});

/** One execution of a playbook; its id is its workflow id (`playbook-<id>-<event_id>` for an event). */
export const playbookExecutions = pgTable(
  'playbook_executions',
  {
    executionId: text('execution_id').primaryKey(),
    playbookId: text('playbook_id').notNull(),
    playbookName: text('playbook_name').notNull(),
    trigger: text('trigger').notNull(),
    eventId: bigint('event_id', { mode: 'number' }),
    event: jsonb('event').$type<Record<string, unknown>>().notNull(),
    status: text('status').notNull(),
    dryRun: boolean('dry_run').notNull().default(false),
    actions: jsonb('actions').$type<ActionResult[]>().notNull(),
    error: text('error'),
    startedAt: tsz('started_at').notNull().defaultNow(),
    completedAt: tsz('completed_at'),
  },
  (t) => [index('playbook_executions_playbook_idx').on(t.playbookId, t.startedAt)],
);

/** Where the event dispatcher has got to in the events table (one row per dispatcher). */
export const automationDispatch = pgTable('automation_dispatch', {
  dispatcherId: text('dispatcher_id').primaryKey(),
  lastEventId: bigint('last_event_id', { mode: 'number' }).notNull(),
  updatedAt: tsz('updated_at').notNull().defaultNow(),
});
