import { z } from 'zod';
import {
  AssessmentSchema,
  DossierSchema,
  FrameworkParamsSchema,
  FrameworkSchema,
  GapRecordSchema,
  GapsQuerySchema,
  GovernanceReportRequestSchema,
  GovernanceReportSchema,
  LoadTemplateSchema,
  ReportRequestSchema,
  TrendPointSchema,
} from '../../schemas/compliance';
import { defineRoutes, route } from '../middleware/route';
import { governanceReport } from './governance-report';
import { buildDossier, sendDossier } from './report';
import { assess, frameworkNamed, gapsOf, listFrameworks, loadTemplate, trend } from './service';

const F = '/compliance/frameworks';
const byName = { params: FrameworkParamsSchema };

/**
 * Compliance frameworks as data (built-in YAML plus custom ones), evidence-backed assessments, gaps, trend, the
 * dossier (PDF or JSON) and the catalog governance report. Reads: viewer; assess and reports: editor;
 * load-template: steward.
 */
export const complianceRoutes = defineRoutes({
  name: 'compliance',
  routes: [
    route({
      method: 'get',
      path: F,
      summary: 'Compliance frameworks with their latest score and when they were last assessed',
      response: { description: 'Frameworks', schema: z.array(FrameworkSchema) },
      handler: ({ deps }) => listFrameworks(deps),
    }),
    route({
      method: 'post',
      path: `${F}/load-template`,
      summary: 'Load a custom framework from YAML (validated; 422 names each bad path)',
      role: 'steward',
      request: { body: LoadTemplateSchema },
      response: { status: 201, description: 'The framework', schema: FrameworkSchema },
      errors: {
        409: 'The id is a built-in framework, or a custom one exists and replace is false',
        422: 'Not a valid framework',
      },
      handler: ({ deps, input }) => loadTemplate(deps, input.body.yaml, input.body.replace),
    }),
    route({
      method: 'post',
      path: `${F}/:framework_name/assess`,
      summary: 'Assess a framework (name case-insensitive): evidence per source, status per control, score; stored',
      request: byName,
      response: { description: 'The assessment', schema: AssessmentSchema },
      errors: { 404: 'Unknown framework' },
      handler: async ({ deps, input }) => assess(deps, await frameworkNamed(deps, input.params.framework_name)),
    }),
    route({
      method: 'get',
      path: `${F}/:framework_name/gaps`,
      summary: 'Gap records of the latest assessment: the evidence of every control that is partial or a gap',
      request: { ...byName, query: GapsQuerySchema },
      response: { description: 'Gap records', schema: z.array(GapRecordSchema) },
      errors: { 404: 'Unknown framework' },
      handler: async ({ deps, input }) =>
        gapsOf(deps, await frameworkNamed(deps, input.params.framework_name), input.query.status),
    }),
    route({
      method: 'get',
      path: `${F}/:framework_name/trend`,
      summary: 'Scores of the framework, oldest first (the newest 100)',
      request: byName,
      response: { description: 'Trend', schema: z.array(TrendPointSchema) },
      errors: { 404: 'Unknown framework' },
      handler: async ({ deps, input }) => trend(deps, await frameworkNamed(deps, input.params.framework_name)),
    }),
    route({
      method: 'post',
      path: '/compliance/reports',
      summary: 'The dossier of a framework over a period, as PDF or JSON (the same content)',
      request: { body: ReportRequestSchema },
      response: {
        description: 'The dossier (JSON), or the same as a PDF document',
        schema: z.union([DossierSchema, z.string().describe('PDF bytes')]),
        mediaTypes: ['application/json', 'application/pdf'],
      },
      errors: {
        404: 'Unknown framework',
        422: 'No assessment of the framework in the period, or the period ends before it starts',
        503: 'PDF reports are switched off (plugin compliance_pdf_reports)',
      },
      handler: async ({ deps, input, res }) => {
        const dossier = await buildDossier(deps, input.body, new Date());
        return sendDossier(deps, res, dossier, input.body.format);
      },
    }),
    route({
      method: 'post',
      path: '/compliance',
      summary: 'Catalog governance report: owners, grants, tag coverage, PII columns masked vs unmasked, scored',
      request: { body: GovernanceReportRequestSchema },
      response: { description: 'The report', schema: GovernanceReportSchema },
      errors: { 404: 'Unknown catalog' },
      handler: async ({ deps, input, req }) =>
        governanceReport(await deps.workspaces.resolve(req), input.body, new Date()),
    }),
  ],
});
