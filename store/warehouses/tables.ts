import { bigserial, boolean, index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

const tsz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** SQL warehouses Lakeward manages: local engine pools, or Databricks SQL warehouses by their own id. */
export const warehouses = pgTable('warehouses', {
  id: text('id').primaryKey(),
  name: text('name').notNull().unique(),
  /** `local` (an engine pool in the workers) or `databricks` (the id is the workspace's warehouse id). */
  location: text('location').notNull(),
  clusterSize: text('cluster_size').notNull(),
  minNumClusters: integer('min_num_clusters').notNull(),
  maxNumClusters: integer('max_num_clusters').notNull(),
  autoStopMins: integer('auto_stop_mins').notNull(),
  warehouseType: text('warehouse_type').notNull(),
  enableServerlessCompute: boolean('enable_serverless_compute').notNull(),
  enablePhoton: boolean('enable_photon').notNull(),
  channel: text('channel').notNull(),
  tags: jsonb('tags').$type<{ key: string; value: string }[]>().notNull(),
  state: text('state').notNull(),
  numClusters: integer('num_clusters').notNull().default(0),
  creatorName: text('creator_name'),
  createdAt: tsz('created_at').notNull().defaultNow(),
  updatedAt: tsz('updated_at').notNull().defaultNow(),
});

/**
 * Every state transition of a warehouse, as it happened (the usage ledger's uptime comes from these rows).
 * Column meanings follow Databricks' system.compute.warehouse_events.
 */
export const warehouseEvents = pgTable(
  'warehouse_events',
  {
    seq: bigserial('seq', { mode: 'number' }).primaryKey(),
    warehouseId: text('warehouse_id').notNull(),
    eventType: text('event_type').notNull(),
    clusterCount: integer('cluster_count').notNull(),
    eventTime: tsz('event_time').notNull(),
    message: text('message'),
  },
  (t) => [index('warehouse_events_by_warehouse').on(t.warehouseId, t.seq)],
);
