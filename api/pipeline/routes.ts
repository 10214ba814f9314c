import { z } from 'zod';
import {
  PipelineBodySchema,
  PipelineIdParamsSchema,
  PipelineRunSchema,
  PipelineSchema,
  RunIdParamsSchema,
  RunsQuerySchema,
  StepDecisionParamsSchema,
  TemplateCreateBodySchema,
} from '../../schemas/pipeline';
import { listPipelines, listRuns } from '../../store/pipeline/repo';
import { HttpError, notFound } from '../middleware/http-error';
import { defineRoutes, route } from '../middleware/route';
import {
  cancelRun,
  createPipeline,
  decideStep,
  pipelineView,
  removePipeline,
  requirePipeline,
  requireRun,
  runPipeline,
  runView,
} from './service';
import { PIPELINE_TEMPLATES, fromTemplate } from './templates';

const refused = { 422: 'A step type, config (checked with its endpoint schema), name or on_failure is refused' };
const TemplateSchema = z.object({ template_name: z.string(), description: z.string(), pipeline: PipelineBodySchema });
const DecisionSchema = z.object({
  run_id: z.string(),
  step: z.string(),
  decision: z.enum(['approved', 'rejected']),
  by: z.string(),
});

const decide = (approved: boolean) =>
  route({
    method: 'post',
    path: `/pipeline/runs/:run_id/steps/:step/${approved ? 'approve' : 'reject'}`,
    summary: `${approved ? 'Approve' : 'Reject (the run fails)'} an approval step that is waiting`,
    request: { params: StepDecisionParamsSchema },
    response: { description: 'The decision', schema: DecisionSchema },
    errors: { 404: 'No such run or step', 409: 'The step is not waiting for approval' },
    handler: async ({ deps, input }) => decideStep(deps, input.params.run_id, input.params.step, approved),
  });

/** /api/pipeline: multi-step pipelines run as `pipeline` jobs of the kernel. */
export const pipelineRoutes = defineRoutes({
  name: 'pipeline',
  tags: ['pipelines'],
  routes: [
    route({
      method: 'get',
      path: '/pipeline/pipelines',
      summary: 'List pipelines',
      response: { description: 'Pipelines', schema: z.object({ pipelines: z.array(PipelineSchema) }) },
      handler: async ({ deps }) => ({ pipelines: (await listPipelines(deps.store.db)).map(pipelineView) }),
    }),
    route({
      method: 'post',
      path: '/pipeline/pipelines',
      summary: 'Create a pipeline {name, description, steps[{type, name, config, on_failure}]}',
      request: { body: PipelineBodySchema },
      response: { status: 201, description: 'Created', schema: PipelineSchema },
      errors: refused,
      handler: async ({ deps, input }) => pipelineView(await createPipeline(deps, input.body)),
    }),
    route({
      method: 'get',
      path: '/pipeline/pipelines/:pipeline_id',
      summary: 'A pipeline',
      request: { params: PipelineIdParamsSchema },
      response: { description: 'The pipeline', schema: PipelineSchema },
      errors: { 404: 'No such pipeline' },
      handler: async ({ deps, input }) => pipelineView(await requirePipeline(deps, input.params.pipeline_id)),
    }),
    route({
      method: 'delete',
      path: '/pipeline/pipelines/:pipeline_id',
      summary: 'Delete a pipeline and its Schedule (its runs stay)',
      request: { params: PipelineIdParamsSchema },
      response: { description: 'Deleted', schema: z.object({ status: z.literal('deleted'), pipeline_id: z.string() }) },
      errors: { 404: 'No such pipeline' },
      handler: async ({ deps, input }) => {
        await removePipeline(deps, input.params.pipeline_id);
        return { status: 'deleted' as const, pipeline_id: input.params.pipeline_id };
      },
    }),
    route({
      method: 'post',
      path: '/pipeline/pipelines/:pipeline_id/run',
      summary: 'Queue a run (a pipeline job running a snapshot of the definition); run_id = job_id',
      request: { params: PipelineIdParamsSchema },
      response: {
        status: 202,
        description: 'Queued',
        schema: z.object({ job_id: z.string(), run_id: z.string() }),
      },
      errors: { 404: 'No such pipeline', 429: 'The pipeline queue is full', 503: 'Temporal is not configured' },
      handler: async ({ deps, input }) => runPipeline(deps, input.params.pipeline_id),
    }),
    route({
      method: 'get',
      path: '/pipeline/runs',
      summary: 'Runs, newest first (of one pipeline with pipeline_id)',
      request: { query: RunsQuerySchema },
      response: { description: 'Runs', schema: z.object({ runs: z.array(PipelineRunSchema) }) },
      handler: async ({ deps, input }) => {
        const rows = await listRuns(deps.store.db, { pipelineId: input.query.pipeline_id, limit: input.query.limit });
        return { runs: await Promise.all(rows.map((r) => runView(deps, r))) };
      },
    }),
    route({
      method: 'get',
      path: '/pipeline/runs/:run_id',
      summary: 'A run with the state of each step',
      request: { params: RunIdParamsSchema },
      response: { description: 'The run', schema: PipelineRunSchema },
      errors: { 404: 'No such run' },
      handler: async ({ deps, input }) => runView(deps, await requireRun(deps, input.params.run_id)),
    }),
    route({
      method: 'post',
      path: '/pipeline/runs/:run_id/cancel',
      summary: 'Cancel a run: its child job is cancelled and the remaining steps skipped',
      request: { params: RunIdParamsSchema },
      response: {
        description: 'Cancel requested',
        schema: z.object({ job_id: z.string(), status: z.enum(['cancelled', 'cancelling']), message: z.string() }),
      },
      errors: { 404: 'No such run', 409: 'The run already ended' },
      handler: async ({ deps, input }) => cancelRun(deps, input.params.run_id),
    }),
    decide(true),
    decide(false),
    route({
      method: 'get',
      path: '/pipeline/templates',
      summary: 'Ready pipelines (production-to-dev, clone-and-validate, refresh-dev, compliance-clone)',
      response: { description: 'Templates', schema: z.object({ templates: z.array(TemplateSchema) }) },
      handler: () => ({ templates: structuredClone(PIPELINE_TEMPLATES) as z.infer<typeof TemplateSchema>[] }),
    }),
    route({
      method: 'post',
      path: '/pipeline/templates/:template_name/create',
      summary: 'Create a pipeline from a template, with per-step config overrides (the template is unchanged)',
      request: { params: z.object({ template_name: z.string().min(1).max(100) }), body: TemplateCreateBodySchema },
      response: { status: 201, description: 'Created', schema: PipelineSchema },
      errors: { 404: 'No such template', ...refused },
      handler: async ({ deps, input }) => {
        const t = PIPELINE_TEMPLATES.find((x) => x.template_name === input.params.template_name);
        if (!t) throw notFound(`no pipeline template ${input.params.template_name}`);
        const { body, unknownSteps } = fromTemplate(t, input.body);
        if (unknownSteps.length)
          throw new HttpError(
            422,
            'INVALID_PIPELINE',
            `overrides name steps the template lacks: ${unknownSteps.join(', ')}`,
            unknownSteps.map((n) => ({ path: `overrides.${n}`, message: 'no such step in the template' })),
          );
        return pipelineView(await createPipeline(deps, body));
      },
    }),
  ],
});
