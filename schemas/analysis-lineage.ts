import { z } from 'zod';
import { IdentifierSchema } from './common';

/** Lineage, impact, dependencies, usage and the pickers' listings (the analysis domain's read side). */

const Warehouse = { warehouse_id: IdentifierSchema.optional() };

export const LineageRequestSchema = z
  .object({ catalog: IdentifierSchema, table: IdentifierSchema.optional(), ...Warehouse })
  .strict();

export const LineageEdgeSchema = z.object({
  /** Three-part names, lower case as Unity Catalog shows them. */
  source: z.string(),
  target: z.string(),
  /** view: the target view reads the source; function: the target function's body names it; clone: a
   * recorded Lakeward clone copied source to target; system: the workspace's own lineage tables. */
  kind: z.enum(['view', 'function', 'clone', 'system']),
  job_id: z.string().nullable(),
  at: z.string().nullable(),
});
export type LineageEdge = z.infer<typeof LineageEdgeSchema>;

export const LineageResponseSchema = z.object({
  catalog: z.string(),
  table: z.string().nullable(),
  edges: z.array(LineageEdgeSchema),
  upstream: z.array(z.string()),
  downstream: z.array(z.string()),
  system_lineage: z.object({ available: z.boolean(), error: z.string().nullable() }),
});

export const ImpactRequestSchema = z
  .object({
    catalog: IdentifierSchema,
    schema: IdentifierSchema.optional(),
    table: IdentifierSchema.optional(),
    ...Warehouse,
  })
  .strict()
  .refine((b) => b.table === undefined || b.schema !== undefined, {
    path: ['schema'],
    message: 'schema is required when table is given',
  });

export const ImpactResponseSchema = z.object({
  catalog: z.string(),
  schema: z.string().nullable(),
  table: z.string().nullable(),
  downstream_tables: z.array(z.string()),
  downstream_views: z.array(z.string()),
  downstream_functions: z.array(z.string()),
  referencing_jobs: z.array(
    z.object({ job_id: z.string(), job_type: z.string(), status: z.string(), created_at: z.string() }),
  ),
  total_affected: z.number(),
  risk_level: z.enum(['none', 'low', 'medium', 'high', 'critical']),
  risk_reason: z.string(),
});

export const DependenciesRequestSchema = z
  .object({ catalog: IdentifierSchema, schema_name: IdentifierSchema, ...Warehouse })
  .strict();

export const DependencySchema = z.object({ object: z.string(), depends_on: z.array(z.string()) });

export const ViewDependenciesResponseSchema = z.object({
  catalog: z.string(),
  schema: z.string(),
  dependencies: z.array(z.object({ view: z.string(), depends_on: z.array(z.string()) })),
  cycles: z.array(z.array(z.string())),
});

export const FunctionDependenciesResponseSchema = z.object({
  catalog: z.string(),
  schema: z.string(),
  dependencies: z.array(z.object({ function: z.string(), depends_on: z.array(z.string()) })),
});

export const CreationOrderResponseSchema = z.object({
  catalog: z.string(),
  schema: z.string(),
  /** Views of the schema, each after every view of the catalog it reads; views on a cycle are left out. */
  creation_order: z.array(z.string()),
  cycles: z.array(z.array(z.string())),
});

// ---- usage -----------------------------------------------------------------------------------------

export const ColumnUsageRequestSchema = z
  .object({
    catalog: IdentifierSchema,
    schema_name: IdentifierSchema.optional(),
    ...Warehouse,
    use_system_tables: z.boolean().default(false),
    include_query_history: z.boolean().default(false),
  })
  .strict();

const UsageSource = {
  /** Where the counts came from: `system_tables` or `lakeward_query_log` (the queries Lakeward ran). */
  source: z.enum(['system_tables', 'lakeward_query_log']),
  /** True when system tables were asked for but could not be read; `error` says why. */
  fallback: z.boolean(),
  error: z.string().nullable(),
};

export const ColumnUsageResponseSchema = z.object({
  catalog: z.string(),
  columns: z.array(z.object({ column: z.string(), table: z.string(), usage_count: z.number() })),
  ...UsageSource,
});

export const TableUsageRequestSchema = z
  .object({
    catalog: IdentifierSchema,
    schema_name: IdentifierSchema.optional(),
    ...Warehouse,
    use_system_tables: z.boolean().default(false),
    limit: z.number().int().min(1).max(1000).default(10),
  })
  .strict();

export const TableUsageResponseSchema = z.object({
  catalog: z.string(),
  tables: z.array(z.object({ table: z.string(), query_count: z.number(), last_accessed: z.string().nullable() })),
  ...UsageSource,
});

// ---- pickers ---------------------------------------------------------------------------------------

export const CatalogParamsSchema = z.object({ catalog: IdentifierSchema });
export const SchemaParamsSchema = z.object({ catalog: IdentifierSchema, schema: IdentifierSchema });

export const CatalogListSchema = z.object({
  catalogs: z.array(z.object({ name: z.string(), comment: z.string().nullable(), owner: z.string().nullable() })),
});
export const SchemaListSchema = z.object({
  catalog: z.string(),
  schemas: z.array(z.object({ name: z.string(), comment: z.string().nullable(), owner: z.string().nullable() })),
});
export const TableListSchema = z.object({
  catalog: z.string(),
  schema: z.string(),
  tables: z.array(z.object({ name: z.string(), type: z.string(), comment: z.string().nullable() })),
});

const UcObjectSchema = z.object({
  name: z.string(),
  owner: z.string().nullable(),
  comment: z.string().nullable(),
  /** The object's URL (external locations) or type (connections), when it has one. */
  detail: z.string().nullable(),
});
export const UcObjectsSchema = z.object({
  metastore: z
    .object({
      metastore_id: z.string(),
      name: z.string().nullable(),
      owner: z.string().nullable(),
      region: z.string().nullable(),
      cloud: z.string().nullable(),
    })
    .nullable(),
  external_locations: z.array(UcObjectSchema),
  storage_credentials: z.array(UcObjectSchema),
  connections: z.array(UcObjectSchema),
  registered_models: z.array(UcObjectSchema),
  shares: z.array(UcObjectSchema),
  recipients: z.array(UcObjectSchema),
  /** Kinds the workspace would not list (permission, feature not enabled), with its error text. */
  unavailable: z.array(z.object({ kind: z.string(), error: z.string() })),
});
