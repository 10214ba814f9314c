import { z } from 'zod';

/** A framework or control id: letters, digits and `_ . - ( )` (`CC6.1`, `Art.17`, `164.312(b)`). */
const ControlIdSchema = z
  .string()
  .min(1)
  .max(60)
  .regex(/^[A-Za-z0-9_.()-]+$/, 'expected letters, digits, _ . - ( )');
const FrameworkIdSchema = z
  .string()
  .min(1)
  .max(40)
  .regex(/^[a-z0-9_-]+$/, 'expected lower-case letters, digits, _ -');
const freshness = z.number().int().min(1).max(3650);

/** Evidence source types: the spec's three plus Lakeward's own records. */
export const EVIDENCE_TYPES = [
  'rtbf_request',
  'dq_rule',
  'audit_log',
  'clone_validation',
  'quiesce_record',
  'provenance_signature',
  'role_config',
  'contract_validation',
] as const;
export type EvidenceType = (typeof EVIDENCE_TYPES)[number];

const base = { freshness_days: freshness.optional().describe('Overrides the framework default') };
export const EvidenceSourceSchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('rtbf_request'),
    filter: z.string().min(1).max(1000).optional().describe('SQL predicate over the RTBF request table'),
    table: z
      .string()
      .regex(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/, 'expected catalog.schema.table')
      .optional()
      .describe('The workspace table of erasure requests; without it the source has no evidence'),
    time_column: z
      .string()
      .regex(/^[A-Za-z_][A-Za-z0-9_]{0,127}$/, 'expected a column name')
      .default('requested_at')
      .describe('When each request was made'),
    ...base,
  }),
  z.strictObject({ type: z.literal('dq_rule'), rule_name: z.string().min(1).max(200), ...base }),
  z.strictObject({ type: z.literal('audit_log'), op_type: z.string().min(1).max(100), ...base }),
  z.strictObject({ type: z.literal('clone_validation'), ...base }),
  z.strictObject({ type: z.literal('quiesce_record'), ...base }),
  z.strictObject({ type: z.literal('provenance_signature'), ...base }),
  z.strictObject({ type: z.literal('role_config'), ...base }),
  z.strictObject({ type: z.literal('contract_validation'), ...base }),
]);
export type EvidenceSource = z.infer<typeof EvidenceSourceSchema>;

export const ControlSchema = z.strictObject({
  control_id: ControlIdSchema,
  title: z.string().min(1).max(200),
  description: z.string().min(1).max(2000),
  category: z.string().min(1).max(100),
  evidence_sources: z.array(EvidenceSourceSchema).min(1),
});
export type Control = z.infer<typeof ControlSchema>;

/** A framework document (config/compliance/*.yaml, or a custom one loaded with load-template). */
export const FrameworkDocumentSchema = z
  .strictObject({
    id: FrameworkIdSchema,
    name: z.string().min(1).max(200),
    version: z.string().min(1).max(40),
    description: z.string().max(2000).optional(),
    freshness_days: freshness.default(30).describe('Default freshness window of every source, in days'),
    controls: z.array(ControlSchema).min(1).max(500),
  })
  .superRefine((doc, ctx) => {
    const seen = new Set<string>();
    doc.controls.forEach((c, i) => {
      const key = c.control_id.toLowerCase();
      if (seen.has(key))
        ctx.addIssue({ code: 'custom', path: ['controls', i, 'control_id'], message: `duplicate ${c.control_id}` });
      seen.add(key);
    });
  });
export type FrameworkDocument = z.infer<typeof FrameworkDocumentSchema>;

export const ControlStatusSchema = z.enum(['met', 'partial', 'gap']);
export type ControlStatus = z.infer<typeof ControlStatusSchema>;
export const EvidenceStateSchema = z.enum(['fresh', 'stale', 'none']);
export type EvidenceState = z.infer<typeof EvidenceStateSchema>;

export const FrameworkSchema = z.object({
  id: z.string(),
  name: z.string(),
  version: z.string(),
  control_count: z.number().int(),
  score: z.number().min(0).max(1).nullable(),
  last_assessed: z.string().nullable(),
  builtin: z.boolean(),
});

/** One source's evidence at assessment time. */
export const SourceEvidenceSchema = z.object({
  evidence_id: z.string(),
  evidence_type: z.enum(EVIDENCE_TYPES),
  source: z.record(z.string(), z.unknown()),
  evidence_count: z.number().int().describe('Matching records of any age'),
  fresh_count: z.number().int().describe('Matching records inside the freshness window'),
  newest_at: z.string().nullable(),
  freshness_days: z.number().int(),
  state: EvidenceStateSchema,
  evidence_summary: z.string(),
});

export const ControlResultSchema = z.object({
  control_id: z.string(),
  control_name: z.string(),
  category: z.string(),
  status: ControlStatusSchema,
  evidence_count: z.number().int(),
  sources: z.array(SourceEvidenceSchema),
});

export const AssessmentSchema = z.object({
  assessment_id: z.string(),
  framework_id: z.string(),
  framework_name: z.string(),
  framework_version: z.string(),
  total_controls: z.number().int(),
  met_controls: z.number().int(),
  partial_controls: z.number().int(),
  gap_controls: z.number().int(),
  score: z.number().min(0).max(1),
  assessed_at: z.string(),
  assessed_by: z.string(),
  evidence: z.array(ControlResultSchema),
});
export type Assessment = z.infer<typeof AssessmentSchema>;

export const GapRecordSchema = z.object({
  evidence_id: z.string(),
  framework_id: z.string(),
  control_id: z.string(),
  control_name: z.string(),
  evidence_type: z.enum(EVIDENCE_TYPES),
  evidence_summary: z.string(),
  evidence_count: z.number().int(),
  state: EvidenceStateSchema,
  status: ControlStatusSchema,
  collected_at: z.string(),
});
export const TrendPointSchema = z.object({ score: z.number(), assessed_at: z.string() });

export const FrameworkParamsSchema = z.object({ framework_name: z.string().min(1).max(60) });
export const GapsQuerySchema = z.object({
  status: z.enum(['gap', 'partial', 'all']).default('all').describe('gap, partial, or both (all)'),
});

export const LoadTemplateSchema = z.object({
  yaml: z.string().min(1).max(500_000).describe('The framework document as YAML text'),
  replace: z.boolean().default(false).describe('Replace a custom framework of the same id'),
});

export const ReportRequestSchema = z.object({
  framework_id: z.string().min(1).max(60),
  period_start: z.iso.datetime({ offset: true }).or(z.iso.date()),
  period_end: z.iso.datetime({ offset: true }).or(z.iso.date()),
  format: z
    .string()
    .transform((s) => s.toUpperCase())
    .pipe(z.enum(['PDF', 'JSON']))
    .default('JSON'),
});

/** The dossier: the JSON report, and exactly what the PDF shows. */
export const DossierSchema = z.object({
  framework_id: z.string(),
  framework_name: z.string(),
  framework_version: z.string(),
  period_start: z.string(),
  period_end: z.string(),
  generated_at: z.string(),
  assessment: AssessmentSchema,
  trend: z.array(TrendPointSchema),
  gaps: z.array(GapRecordSchema),
});
export type Dossier = z.infer<typeof DossierSchema>;

export const GovernanceReportTypeSchema = z.enum([
  'data_governance',
  'pii_audit',
  'permission_audit',
  'tag_coverage',
  'ownership_audit',
  'full_report',
]);
export const GovernanceReportRequestSchema = z.object({
  catalog: z.string().min(1).max(255).optional().describe('Default: every catalog of the workspace'),
  report_type: GovernanceReportTypeSchema.default('data_governance'),
});
export const SectionStatusSchema = z.enum(['COMPLIANT', 'WARNING', 'NON_COMPLIANT']);
export const GovernanceSectionSchema = z.object({
  name: z.string(),
  score: z.number().int().min(0).max(100),
  status: SectionStatusSchema,
  summary: z.string(),
  details: z.record(z.string(), z.unknown()),
});
export const GovernanceReportSchema = z.object({
  report_type: GovernanceReportTypeSchema,
  catalogs: z.array(z.string()),
  generated_at: z.string(),
  overall_score: z.number().int().min(0).max(100),
  overall_status: SectionStatusSchema,
  sections: z.array(GovernanceSectionSchema),
});
export type GovernanceSection = z.infer<typeof GovernanceSectionSchema>;
