import { z } from 'zod';

/** DLT (Lakeflow Declarative Pipelines) discovery: the Pipelines API's list and get, read-only. */

export const PipelineListQuerySchema = z.object({
  filter: z.string().min(1).max(1000).optional().meta({
    description: "Passed to Databricks unchanged, e.g. name LIKE '%sales%'",
    example: "name LIKE '%sales%'",
  }),
  page_token: z.string().min(1).max(4096).optional().meta({ description: 'next_page_token of the previous page' }),
  max_results: z.coerce.number().int().min(1).max(100).optional(),
});

const UpdateSchema = z.object({ update_id: z.string(), state: z.string(), creation_time: z.string().optional() });

export const PipelineSummarySchema = z.object({
  pipeline_id: z.string(),
  name: z.string(),
  state: z.string(),
  latest_updates: z.array(UpdateSchema),
});

export const PipelineListSchema = z.object({
  pipelines: z.array(PipelineSummarySchema),
  next_page_token: z.string().optional(),
});

export const PipelineDetailSchema = PipelineSummarySchema.extend({
  catalog: z.string().nullable(),
  target: z.string().nullable().meta({ description: 'The schema the pipeline publishes to' }),
  tables: z.array(z.string()).meta({ description: 'catalog.schema.table of each table in the target schema' }),
});
