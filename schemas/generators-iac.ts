import { z } from 'zod';
import { IdentifierSchema } from './common';

/** /api/generate/workflow and /api/generate/terraform: a clone as a scheduled Databricks job. */

/** Quartz cron as Databricks schedules take it: 6 or 7 fields (sec min hour day-of-month month day-of-week [year]). */
const QuartzSchema = z
  .string()
  .trim()
  .regex(/^\S+(\s+\S+){5,6}$/, 'a Quartz cron expression: 6 or 7 fields, such as 0 0 2 * * ?');

export const IacBodySchema = z.strictObject({
  source_catalog: IdentifierSchema,
  destination_catalog: IdentifierSchema,
  clone_type: z.enum(['DEEP', 'SHALLOW']).default('DEEP'),
  include_schemas: z.array(IdentifierSchema).optional(),
  exclude_schemas: z.array(IdentifierSchema).default(['information_schema']),
  job_name: z.string().trim().min(1).max(4096),
  schedule: QuartzSchema.optional(),
  timezone: z.string().min(1).max(64).default('UTC'),
  warehouse_id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'a SQL warehouse id'),
  /** workflow only: a Jobs API 2.2 create body, or an Asset Bundle. */
  format: z.enum(['json', 'bundle']).default('json'),
  /** Where the SQL files live in the workspace (json and terraform). */
  files_root: z
    .string()
    .regex(/^\/[^\s"'\\]*$/, 'an absolute workspace path')
    .optional(),
});
export type IacBody = z.infer<typeof IacBodySchema>;

const FileSchema = z.object({ path: z.string(), content: z.string() });
export const WorkflowResultSchema = z.object({
  format: z.enum(['json', 'bundle']),
  /** json: the jobs/create body (its SQL files are in `files`). */
  job: z.record(z.string(), z.unknown()).optional(),
  files: z.array(FileSchema),
  tables: z.number(),
});
export const TerraformResultSchema = z.object({ hcl: z.string(), tables: z.number() });
