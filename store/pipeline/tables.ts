import { index, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import type { Step, StepState } from '../../schemas/pipeline';

const tsz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** Pipeline definitions: ordered steps, each with the config of the endpoint it stands for. */
export const pipelines = pgTable('pipelines', {
  pipelineId: text('pipeline_id').primaryKey(),
  name: text('name').notNull(),
  description: text('description').notNull().default(''),
  steps: jsonb('steps').$type<Step[]>().notNull(),
  /** `{cron, timezone, paused}`: the Temporal Schedule `pipeline-schedule-<id>` queues a run on it. */
  schedule: jsonb('schedule').$type<{ cron: string; timezone: string; paused?: boolean } | null>(),
  createdBy: text('created_by').notNull(),
  createdAt: tsz('created_at').notNull().defaultNow(),
  updatedAt: tsz('updated_at').notNull().defaultNow(),
});

/**
 * One run of a pipeline; run_id is the id of its `pipeline` job (the run's status is the job's). `definition`
 * is the snapshot the run executes; `steps` each step's state as the workflow records it.
 */
export const pipelineRuns = pgTable(
  'pipeline_runs',
  {
    runId: text('run_id').primaryKey(),
    pipelineId: text('pipeline_id').notNull(),
    pipelineName: text('pipeline_name').notNull(),
    definition: jsonb('definition').$type<Step[]>().notNull(),
    steps: jsonb('steps').$type<StepState[]>().notNull(),
    createdAt: tsz('created_at').notNull().defaultNow(),
  },
  (t) => [index('pipeline_runs_pipeline_idx').on(t.pipelineId, t.createdAt)],
);
