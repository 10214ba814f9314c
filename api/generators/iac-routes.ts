import {
  bundleFiles,
  jobsBody,
  sqlFiles,
  terraformHcl,
  type CloneTask,
  type JobModel,
} from '../../activities/generators/logic/iac';
import { createCatalogSql, createSchemaSql } from '../../platform/databricks/sql/ddl';
import { cloneTableSql } from '../../platform/databricks/sql/delta-ops';
import { IacBodySchema, TerraformResultSchema, WorkflowResultSchema, type IacBody } from '../../schemas/generators-iac';
import type { AppDeps } from '../deps';
import { HttpError } from '../middleware/http-error';
import { defineRoutes, route } from '../middleware/route';

const taskKey = (schema: string) => `clone_${schema.replace(/[^A-Za-z0-9_]/g, '_')}`;

/**
 * The model of a clone job from the source catalog as it is now: a `setup` task creating the destination catalog
 * and schemas, then one task per schema with the CLONE statement of each of its tables — the statements the
 * Databricks adapter runs for a clone (platform/databricks/sql).
 */
async function modelOf(deps: AppDeps, b: IacBody): Promise<{ model: JobModel; tables: number }> {
  const ws = await deps.workspaces.default();
  const all = (await ws.listSchemas(b.source_catalog)).map((s) => s.name).sort();
  const excluded = new Set(b.exclude_schemas.map((s) => s.toLowerCase()));
  const schemas = all.filter(
    (s) =>
      !excluded.has(s.toLowerCase()) &&
      (!b.include_schemas || b.include_schemas.some((i) => i.toLowerCase() === s.toLowerCase())),
  );
  if (!schemas.length)
    throw new HttpError(422, 'NOTHING_TO_CLONE', `no schema of ${b.source_catalog} is selected`, [
      { path: 'body.include_schemas', message: 'selects no schema' },
    ]);
  const setup: CloneTask = {
    task_key: 'setup',
    depends_on: [],
    statements: [
      createCatalogSql({ name: b.destination_catalog, ifNotExists: true }),
      ...schemas.map((s) => createSchemaSql({ catalog: b.destination_catalog, name: s, ifNotExists: true })),
    ],
  };
  const tasks: CloneTask[] = [setup];
  let tables = 0;
  for (const s of schemas) {
    const names = (await ws.listTables(b.source_catalog, s)).map((t) => t.name).sort();
    if (!names.length) continue;
    tables += names.length;
    tasks.push({
      task_key: taskKey(s),
      depends_on: ['setup'],
      statements: names.map((name) =>
        cloneTableSql({
          source: { catalog: b.source_catalog, schema: s, name },
          target: { catalog: b.destination_catalog, schema: s, name },
          cloneType: b.clone_type,
        }),
      ),
    });
  }
  const schedule = b.schedule ? { quartz_cron_expression: b.schedule, timezone_id: b.timezone } : null;
  return { model: { name: b.job_name, schedule, warehouse_id: b.warehouse_id, tasks }, tables };
}

const rootOf = (b: IacBody) =>
  b.files_root ?? `/Workspace/Shared/lakeward/${b.job_name.replace(/[^A-Za-z0-9_-]+/g, '_')}`;

export const iacRoutes = defineRoutes({
  name: 'generators-iac',
  tags: ['generators'],
  routes: [
    route({
      method: 'post',
      path: '/generate/workflow',
      summary: 'A clone as a scheduled Databricks job: a Jobs API 2.2 body with its SQL files, or an Asset Bundle',
      role: 'viewer',
      request: { body: IacBodySchema },
      response: { description: 'The job and its files', schema: WorkflowResultSchema },
      errors: { 404: 'The source catalog does not exist', 422: 'No schema selected' },
      handler: async ({ deps, input: { body } }) => {
        const { model, tables } = await modelOf(deps, body);
        if (body.format === 'bundle') return { format: 'bundle' as const, files: bundleFiles(model), tables };
        const root = rootOf(body);
        return { format: 'json' as const, job: jobsBody(model, root), files: sqlFiles(model, root), tables };
      },
    }),
    route({
      method: 'post',
      path: '/generate/terraform',
      summary: 'The same clone job as Terraform (databricks provider): workspace files and a databricks_job',
      role: 'viewer',
      request: { body: IacBodySchema },
      response: { description: 'HCL', schema: TerraformResultSchema },
      errors: { 404: 'The source catalog does not exist', 422: 'No schema selected' },
      handler: async ({ deps, input: { body } }) => {
        const { model, tables } = await modelOf(deps, body);
        return { hcl: terraformHcl(model, rootOf(body)), tables };
      },
    }),
  ],
});
