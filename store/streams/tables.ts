import { integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

const tsz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * Continuous sync streams (POST /api/continuous-sync/start). The stream's workflow (workflow id = stream id)
 * is the runner; this row is what the API lists and what a new run resumes from: per table, the source version
 * whose changes the destination holds (`applied`).
 */
export const syncStreams = pgTable('sync_streams', {
  streamId: text('stream_id').primaryKey(),
  sourceCatalog: text('source_catalog').notNull(),
  destinationCatalog: text('destination_catalog').notNull(),
  /** `schema.table` names, in request order. */
  tables: jsonb('tables').$type<string[]>().notNull(),
  triggerMs: integer('trigger_ms').notNull(),
  /** starting → running after one cycle; stopped; failed. */
  status: text('status').notNull(),
  runId: text('run_id'),
  /** `schema.table` → source version applied to the destination. */
  applied: jsonb('applied').$type<Record<string, number>>().notNull().default({}),
  /** `schema.table` → source version seen at the last cycle. */
  sourceVersions: jsonb('source_versions').$type<Record<string, number>>().notNull().default({}),
  cycles: integer('cycles').notNull().default(0),
  lastCycleAt: tsz('last_cycle_at'),
  /** The last cycle's failure (per table), null once a cycle succeeds. */
  error: text('error'),
  createdAt: tsz('created_at').notNull().defaultNow(),
  updatedAt: tsz('updated_at').notNull().defaultNow(),
});
