import YAML from 'yaml';

/**
 * A clone as a scheduled Databricks job, in three forms from one model: a Jobs API 2.2 create body, a Databricks
 * Asset Bundle and Terraform (databricks provider). Each task is a SQL task running a file of the clone's
 * statements on a warehouse. Pure and deterministic.
 */

export interface CloneTask {
  task_key: string;
  depends_on: string[];
  statements: string[];
}

export interface JobModel {
  name: string;
  /** Quartz cron and its time zone, or none (run on demand). */
  schedule: { quartz_cron_expression: string; timezone_id: string } | null;
  warehouse_id: string;
  tasks: CloneTask[];
}

export const sqlText = (t: CloneTask) => t.statements.map((s) => `${s};`).join('\n') + '\n';

/** The Jobs API 2.2 `jobs/create` body; each task's SQL is the file `<filesRoot>/<task_key>.sql`. */
export function jobsBody(m: JobModel, filesRoot: string) {
  return {
    name: m.name,
    max_concurrent_runs: 1,
    tags: { created_by: 'lakeward' },
    ...(m.schedule ? { schedule: { ...m.schedule, pause_status: 'UNPAUSED' as const } } : {}),
    tasks: m.tasks.map((t) => ({
      task_key: t.task_key,
      ...(t.depends_on.length ? { depends_on: t.depends_on.map((k) => ({ task_key: k })) } : {}),
      sql_task: {
        warehouse_id: m.warehouse_id,
        file: { path: `${filesRoot}/${t.task_key}.sql`, source: 'WORKSPACE' as const },
      },
    })),
  };
}

export const sqlFiles = (m: JobModel, root: string) =>
  m.tasks.map((t) => ({ path: `${root}/${t.task_key}.sql`, content: sqlText(t) }));

const resourceKey = (name: string) => {
  const k =
    name
      .toLowerCase()
      .replace(/[^a-z0-9_]+/g, '_')
      .replace(/^_+|_+$/g, '') || 'clone_job';
  return /^[a-z_]/.test(k) ? k : `job_${k}`;
};

/** An Asset Bundle: `databricks.yml` with the job under resources.jobs, and its SQL files under `sql/`. */
export function bundleFiles(m: JobModel) {
  const body = jobsBody(m, './sql');
  const doc = { bundle: { name: resourceKey(m.name) }, resources: { jobs: { [resourceKey(m.name)]: body } } };
  return [{ path: 'databricks.yml', content: YAML.stringify(doc) }, ...sqlFiles(m, 'sql')];
}

/** A quoted HCL string: escapes, and `${` / `%{` doubled so Terraform never interpolates them. */
export function hclString(s: string): string {
  const body = s
    .replace(/\\/g, '\\\\')
    .replace(/"/g, '\\"')
    .replace(/\n/g, '\\n')
    .replace(/\r/g, '\\r')
    .replace(/\t/g, '\\t')
    .replace(/\$\{/g, () => '$${')
    .replace(/%\{/g, () => '%%{');
  return `"${body}"`;
}

/** Terraform: a databricks_workspace_file per SQL file (base64 content) and the databricks_job running them. */
export function terraformHcl(m: JobModel, filesRoot: string): string {
  const key = resourceKey(m.name);
  const out: string[] = [
    'terraform {',
    '  required_providers {',
    '    databricks = {',
    '      source = "databricks/databricks"',
    '    }',
    '  }',
    '}',
    '',
  ];
  for (const t of m.tasks) {
    out.push(
      `resource "databricks_workspace_file" ${hclString(`${key}_${t.task_key}`)} {`,
      `  path           = ${hclString(`${filesRoot}/${t.task_key}.sql`)}`,
      `  content_base64 = ${hclString(Buffer.from(sqlText(t), 'utf8').toString('base64'))}`,
      '}',
      '',
    );
  }
  out.push(
    `resource "databricks_job" ${hclString(key)} {`,
    `  name                = ${hclString(m.name)}`,
    '  max_concurrent_runs = 1',
  );
  out.push('  tags = {', `    created_by = ${hclString('lakeward')}`, '  }');
  if (m.schedule)
    out.push(
      '  schedule {',
      `    quartz_cron_expression = ${hclString(m.schedule.quartz_cron_expression)}`,
      `    timezone_id            = ${hclString(m.schedule.timezone_id)}`,
      `    pause_status           = ${hclString('UNPAUSED')}`,
      '  }',
    );
  for (const t of m.tasks) {
    out.push('  task {', `    task_key = ${hclString(t.task_key)}`);
    for (const d of t.depends_on) out.push('    depends_on {', `      task_key = ${hclString(d)}`, '    }');
    out.push(
      '    sql_task {',
      `      warehouse_id = ${hclString(m.warehouse_id)}`,
      '      file {',
      `        path = databricks_workspace_file.${key}_${t.task_key}.path`,
      '      }',
      '    }',
      '  }',
    );
  }
  out.push('}', '');
  return out.join('\n');
}
