import type { PipelineBody } from '../../schemas/pipeline';

export interface PipelineTemplate {
  template_name: string;
  description: string;
  pipeline: PipelineBody;
}

/**
 * Ready pipelines. `…/templates/{name}/create` works on a deep copy with per-step config overrides, so a template
 * never changes. Catalog names are placeholders (`prod`, `dev`): override them per step.
 */
export const PIPELINE_TEMPLATES: readonly PipelineTemplate[] = [
  {
    template_name: 'production-to-dev',
    description: 'Deep-clone production into dev, check row counts, tell the team',
    pipeline: {
      name: 'production to dev',
      description: 'DEEP clone prod → dev, validate, notify',
      steps: [
        {
          type: 'clone',
          name: 'clone',
          config: { source_catalog: 'prod', destination_catalog: 'dev', clone_type: 'DEEP' },
          on_failure: { retry: 1 },
        },
        {
          type: 'validate',
          name: 'validate',
          config: { source_catalog: 'prod', destination_catalog: 'dev' },
          on_failure: 'stop',
        },
        { type: 'notify', name: 'notify', config: { message: 'dev refreshed from prod' }, on_failure: 'continue' },
      ],
    },
  },
  {
    template_name: 'clone-and-validate',
    description: 'Shallow-clone a catalog, then compare row counts and checksums',
    pipeline: {
      name: 'clone and validate',
      description: 'SHALLOW clone, validate with checksums',
      steps: [
        {
          type: 'clone',
          name: 'clone',
          config: { source_catalog: 'prod', destination_catalog: 'prod_copy', clone_type: 'SHALLOW' },
          on_failure: 'stop',
        },
        {
          type: 'validate',
          name: 'validate',
          config: { source_catalog: 'prod', destination_catalog: 'prod_copy', checksum: true },
          on_failure: 'stop',
        },
      ],
    },
  },
  {
    template_name: 'refresh-dev',
    description: 'Bring one schema of dev up to date with production (changed tables only), then validate',
    pipeline: {
      name: 'refresh dev',
      description: 'incremental sync prod → dev of one schema, validate',
      steps: [
        {
          type: 'sync',
          name: 'sync',
          config: { source_catalog: 'prod', destination_catalog: 'dev', schema_name: 'sales' },
          on_failure: { retry: 2 },
        },
        {
          type: 'validate',
          name: 'validate',
          config: { source_catalog: 'prod', destination_catalog: 'dev' },
          on_failure: 'stop',
        },
      ],
    },
  },
  {
    template_name: 'compliance-clone',
    description: 'An approved clone that passes the quality gate first and is validated afterwards',
    pipeline: {
      name: 'compliance clone',
      description: 'approval, quality gate, DEEP clone, validate, notify',
      steps: [
        { type: 'approval', name: 'approve', config: { message: 'approve the clone of prod' }, on_failure: 'stop' },
        {
          type: 'gate',
          name: 'gate',
          config: { table_fqn: 'prod.sales.orders', min_pass_rate: 100 },
          on_failure: 'stop',
        },
        {
          type: 'clone',
          name: 'clone',
          config: { source_catalog: 'prod', destination_catalog: 'prod_compliance', clone_type: 'DEEP' },
          on_failure: 'stop',
        },
        {
          type: 'validate',
          name: 'validate',
          config: { source_catalog: 'prod', destination_catalog: 'prod_compliance' },
          on_failure: 'stop',
        },
        { type: 'notify', name: 'notify', config: { message: 'compliance clone done' }, on_failure: 'continue' },
      ],
    },
  },
];

/** A template's pipeline with `overrides` (per step name, config keys) merged over a deep copy. */
export function fromTemplate(
  t: PipelineTemplate,
  o: { name?: string; description?: string; overrides: Record<string, Record<string, unknown>> },
): { body: PipelineBody; unknownSteps: string[] } {
  const body = structuredClone(t.pipeline);
  const names = new Set(body.steps.map((s) => s.name));
  body.steps = body.steps.map((s) =>
    o.overrides[s.name] ? { ...s, config: { ...s.config, ...o.overrides[s.name] } } : s,
  );
  if (o.name) body.name = o.name;
  if (o.description !== undefined) body.description = o.description;
  return { body, unknownSteps: Object.keys(o.overrides).filter((n) => !names.has(n)) };
}
