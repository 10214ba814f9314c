import { z } from 'zod';

/** MDM report shapes: custom report YAML (specification: name, title, parameters, sql, viz), runs and downloads. */

export const ReportParamTypeSchema = z.enum(['string', 'number', 'integer', 'date', 'boolean']);

export const ReportVizSchema = z.strictObject({
  type: z.enum(['bar', 'line', 'point', 'area', 'arc']),
  x: z.string().min(1).max(128),
  y: z.string().min(1).max(128),
});

export const ReportDefinitionSchema = z.strictObject({
  name: z.string().regex(/^[a-z][a-z0-9_]{0,62}$/, 'must be lower-case letters, digits and _ (max 63)'),
  title: z.string().min(1).max(200),
  description: z.string().max(2000).optional(),
  parameters: z
    .record(
      z.string().regex(/^[a-z][a-z0-9_]{0,62}$/, 'a parameter name is lower-case letters, digits and _'),
      z.strictObject({
        type: ReportParamTypeSchema,
        default: z.union([z.string(), z.number(), z.boolean()]).optional(),
      }),
    )
    .default({}),
  sql: z
    .string()
    .min(1)
    .max(20_000)
    .meta({ description: 'One read-only SELECT; {param} placeholders are bound by type' }),
  viz: ReportVizSchema.optional(),
});
export type ReportDefinition = z.infer<typeof ReportDefinitionSchema>;

export const ReportSummarySchema = z.object({
  name: z.string(),
  title: z.string(),
  description: z.string().nullable(),
  origin: z.enum(['builtin', 'config', 'api']),
  parameters: z.record(z.string(), z.object({ type: ReportParamTypeSchema, default: z.unknown().optional() })),
  viz: ReportVizSchema.nullable(),
});

export const ReportPostBodySchema = z.union([
  z.strictObject({ yaml: z.string().min(1).max(50_000) }),
  ReportDefinitionSchema,
]);

export const ReportRunBodySchema = z.strictObject({
  from: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .optional(),
  to: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .optional(),
  filters: z.strictObject({ entity_type: z.string().max(63).optional() }).optional(),
  parameters: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
});

export const ReportNameParamsSchema = z.object({ name: z.string().min(1).max(63) });
export const ReportRunParamsSchema = z.object({ id: z.string().min(1).max(128) });

export const ReportFormatSchema = z.enum(['pdf', 'png', 'svg', 'csv', 'json', 'html']);

/** What a report run computes (the job's summary keeps it). */
export interface ReportResult {
  report: string;
  title: string;
  parameters: Record<string, unknown>;
  columns: string[];
  rows: Record<string, string | number | boolean | null>[];
  viz: z.infer<typeof ReportVizSchema> | null;
  truncated: boolean;
}

/** The input of an `mdm_report` job. */
export const MdmReportInputSchema = z.object({
  jobId: z.string(),
  report: z.string(),
  title: z.string(),
  kind: z.enum(['builtin', 'sql']),
  sql: z.string().nullable(),
  viz: ReportVizSchema.nullable(),
  parameters: z.record(z.string(), z.unknown()),
  from: z.string(),
  to: z.string(),
  entityType: z.string().nullable(),
  catalog: z.string(),
  slaCalendar: z.string(),
});
export type MdmReportInput = z.infer<typeof MdmReportInputSchema>;

export const ReportRunViewSchema = z.object({
  report_id: z.string(),
  report: z.string().nullable(),
  status: z.string(),
  error: z.string().nullable(),
  created_at: z.string(),
  completed_at: z.string().nullable(),
  result: z
    .object({
      title: z.string(),
      parameters: z.record(z.string(), z.unknown()),
      columns: z.array(z.string()),
      rows: z.array(z.record(z.string(), z.unknown())),
      truncated: z.boolean(),
    })
    .nullable(),
});
