import { z } from 'zod';

/** Names of the warehouse workflow and its signals (workflows/warehouses/definitions.ts defines them). */
export const WAREHOUSE_WORKFLOW = 'warehouseWorkflow';
export const WAREHOUSE_COMMAND_SIGNAL = 'warehouseCommand';
export const WAREHOUSE_USED_SIGNAL = 'warehouseUsed';
export const warehouseWorkflowId = (warehouseId: string) => `warehouse-${warehouseId}`;

/** SQL warehouse cluster sizes as Databricks names them, smallest first. */
export const CLUSTER_SIZES = [
  '2X-Small',
  'X-Small',
  'Small',
  'Medium',
  'Large',
  'X-Large',
  '2X-Large',
  '3X-Large',
  '4X-Large',
] as const;
export type ClusterSize = (typeof CLUSTER_SIZES)[number];

/** Warehouse states, spelt as the Databricks SQL Warehouses API spells them. */
export const WAREHOUSE_STATES = ['STARTING', 'RUNNING', 'STOPPING', 'STOPPED', 'DELETING', 'DELETED'] as const;
export const WarehouseStateSchema = z.enum(WAREHOUSE_STATES).meta({ id: 'WarehouseState' });
export type WarehouseState = z.infer<typeof WarehouseStateSchema>;

/** The spec's type: Pro, Serverless or Classic (Databricks: warehouse_type + enable_serverless_compute). */
export const WarehouseKindSchema = z.enum(['Pro', 'Serverless', 'Classic']);
export type WarehouseKind = z.infer<typeof WarehouseKindSchema>;

const TagsSchema = z.object({
  custom_tags: z.array(z.object({ key: z.string().min(1).max(255), value: z.string().max(255) })).default([]),
});
const ChannelSchema = z.object({ name: z.enum(['CHANNEL_NAME_CURRENT', 'CHANNEL_NAME_PREVIEW']) });

/**
 * Create/edit body with the Databricks REST field names. Types are checked here (400); the ranges Databricks
 * enforces (size list, 1 ≤ min ≤ max ≤ 30, auto_stop_mins 0 or ≥ 10) are checked by the route (422 naming
 * the field), after an edit is merged with the warehouse it changes.
 */
export const WarehouseEditSchema = z
  .object({
    name: z
      .string()
      .min(1)
      .max(100)
      .regex(/^[A-Za-z0-9 _.-]+$/, 'letters, digits, space, _ . -'),
    cluster_size: z.string().meta({ description: `One of ${CLUSTER_SIZES.join(', ')}` }),
    min_num_clusters: z.number().int(),
    max_num_clusters: z.number().int(),
    auto_stop_mins: z.number().int().meta({ description: '0 (never) or at least 10; default 120' }),
    warehouse_type: z.enum(['PRO', 'CLASSIC']),
    enable_serverless_compute: z.boolean(),
    type: WarehouseKindSchema.meta({ description: 'Shorthand for warehouse_type + enable_serverless_compute' }),
    enable_photon: z.boolean(),
    channel: ChannelSchema,
    tags: TagsSchema,
  })
  .partial()
  .meta({ id: 'WarehouseEdit' });
export const WarehouseCreateSchema = WarehouseEditSchema.required({ name: true, cluster_size: true }).meta({
  id: 'WarehouseCreate',
});
export type WarehouseEdit = z.infer<typeof WarehouseEditSchema>;
export type WarehouseCreate = z.infer<typeof WarehouseCreateSchema>;

export const WarehouseSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    cluster_size: z.string(),
    min_num_clusters: z.number().int(),
    max_num_clusters: z.number().int(),
    auto_stop_mins: z.number().int(),
    warehouse_type: z.enum(['PRO', 'CLASSIC']),
    enable_serverless_compute: z.boolean(),
    type: WarehouseKindSchema,
    enable_photon: z.boolean(),
    channel: ChannelSchema,
    tags: TagsSchema,
    state: WarehouseStateSchema,
    num_clusters: z.number().int(),
    num_active_sessions: z.number().int(),
    connection_string: z.string(),
    odbc_params: z.object({ hostname: z.string(), path: z.string(), protocol: z.string(), port: z.number() }),
    jdbc_url: z.string(),
    creator_name: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Warehouse' });
export type WarehouseBody = z.infer<typeof WarehouseSchema>;

export const WarehouseEventSchema = z
  .object({
    warehouse_id: z.string(),
    event_type: WarehouseStateSchema,
    cluster_count: z.number().int(),
    event_time: z.string(),
    message: z.string().nullable(),
  })
  .meta({ id: 'WarehouseEvent' });

export const WarehouseIdParamsSchema = z.object({ id: z.string().min(1).max(100) });
export const WarehouseIdBodySchema = z.object({ warehouse_id: z.string().min(1).max(100) });
export const WarehouseActionSchema = z
  .object({ id: z.string(), state: WarehouseStateSchema, accepted: z.boolean(), message: z.string() })
  .meta({ id: 'WarehouseAction' });

/** A warehouse's settings after defaults, as the store keeps them. */
export interface WarehouseSpec {
  name: string;
  clusterSize: ClusterSize;
  minNumClusters: number;
  maxNumClusters: number;
  autoStopMins: number;
  warehouseType: 'PRO' | 'CLASSIC';
  enableServerlessCompute: boolean;
  enablePhoton: boolean;
  channel: 'CHANNEL_NAME_CURRENT' | 'CHANNEL_NAME_PREVIEW';
  tags: { key: string; value: string }[];
}
