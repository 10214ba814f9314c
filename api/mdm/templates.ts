import { z } from 'zod';
import {
  TemplateApplyBodySchema,
  TemplateApplyResultSchema,
  TemplateParamsSchema,
  TemplateSchema,
  TemplateSummarySchema,
  type Template,
} from '../../schemas/mdm-templates';
import { assertAllowed } from '../governance/access';
import { callerOf } from '../middleware/auth';
import { notFound } from '../middleware/http-error';
import { route } from '../middleware/route';
import { applyTemplate, loadTemplates } from './templates-service';

const summary = (t: Template) => ({
  name: t.name,
  title: t.title,
  description: t.description ?? null,
  entities: Object.keys(t.entities),
  reference_domains: [...t.reference_data, ...t.hierarchies].map((d) => d.domain),
  dq_rule_count: Object.values(t.dq_rules).reduce((n, r) => n + r.length, 0),
});

const find = (name: string) => {
  const t = loadTemplates().find((x) => x.name === name);
  if (!t) throw notFound(`No MDM template ${name}`);
  return t;
};

/** Industry templates (`/mdm/templates`, from config/mdm/templates/*.yaml) and their idempotent apply. */
export const templateRoutes = [
  route({
    method: 'get',
    path: '/mdm/templates',
    summary: 'Industry templates (healthcare MPI, financial KYC, retail 360, manufacturing supplier, …)',
    response: { description: 'Templates', schema: z.array(TemplateSummarySchema) },
    handler: () => loadTemplates().map(summary),
  }),
  route({
    method: 'get',
    path: '/mdm/templates/:name',
    summary:
      'A template with every component: entities, attributes, match rules, merge strategies, reference data, hierarchies, DQ rules',
    request: { params: TemplateParamsSchema },
    response: { description: 'The template', schema: TemplateSchema },
    errors: { 404: 'No such template' },
    handler: ({ input: { params } }) => find(params.name),
  }),
  route({
    method: 'post',
    path: '/mdm/templates/:name/apply',
    summary:
      'Apply a template: models, source_records tables, reference data and DQX checks; a second apply changes nothing',
    request: { params: TemplateParamsSchema, body: TemplateApplyBodySchema },
    response: { description: 'What each component did', schema: TemplateApplyResultSchema },
    errors: {
      403: 'An access policy refuses writing the target catalog',
      404: 'No such template',
      409: 'A template code or alias belongs to another code already',
      422: 'A component cannot be applied (details name it)',
    },
    handler: async ({ deps, input: { params, body }, req }) => {
      const t = find(params.name);
      const target = body.target_catalog ?? deps.config.mdm.catalog;
      await assertAllowed(deps, callerOf(req), { operation: 'write', destination: target }, 'body.target_catalog');
      const components = body.components ?? ['entities', 'match_rules', 'reference_data', 'dq_rules'];
      return applyTemplate(deps, t, target, components, callerOf(req).name);
    },
  }),
];
