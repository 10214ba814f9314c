import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Express } from 'express';
import request from 'supertest';
import YAML from 'yaml';
import { z } from 'zod';
import { createApp } from '../../api/app';
import { startServer } from '../../api/server';
import { openWorkspace } from '../../platform';
import type { Workspace } from '../../platform/port';
import type { Store } from '../../store/db';
import { testAppDeps } from '../api/deps';
import { seedMiniCatalog } from '../clone/fixtures/mini-catalog';
import { createTestStore } from '../helpers/db';

/** The clone job generators: a strict Jobs 2.2 model, sqlglot on every statement, python-hcl2 on the Terraform. */
const PY = path.resolve(__dirname, '../../.venv/bin/python');
let store: Store;
let ws: Workspace;
let app: Express;
let dir: string;
let deps: ReturnType<typeof testAppDeps>;

beforeAll(async () => {
  store = await createTestStore();
  dir = mkdtempSync(path.join(tmpdir(), 'lw-iac-'));
  ws = await openWorkspace({ kind: 'local', root: dir });
  await seedMiniCatalog(ws, 'prod');
  deps = testAppDeps({ store, open: async () => ws });
  app = createApp(deps);
}, 60_000);
afterAll(async () => {
  await ws?.close();
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The part of the Jobs API 2.2 create body the generator writes, strictly: an unknown or misspelt field fails. */
const Jobs22 = z.strictObject({
  name: z.string().min(1),
  max_concurrent_runs: z.number().int().min(1),
  tags: z.record(z.string(), z.string()),
  schedule: z
    .strictObject({
      quartz_cron_expression: z.string(),
      timezone_id: z.string(),
      pause_status: z.enum(['PAUSED', 'UNPAUSED']),
    })
    .optional(),
  tasks: z
    .array(
      z.strictObject({
        task_key: z.string().regex(/^[\w\-.]{1,100}$/),
        depends_on: z.array(z.strictObject({ task_key: z.string() })).optional(),
        sql_task: z.strictObject({
          warehouse_id: z.string(),
          file: z.strictObject({ path: z.string(), source: z.enum(['WORKSPACE', 'GIT']).optional() }),
        }),
      }),
    )
    .min(1)
    .max(1000),
});

const body = {
  source_catalog: 'prod',
  destination_catalog: 'prod_dev',
  clone_type: 'SHALLOW',
  job_name: 'nightly ${env} copy',
  schedule: '0 0 2 * * ?',
  timezone: 'Europe/Amsterdam',
  warehouse_id: 'wh-123',
};

function sqlglot(statements: string[]) {
  const file = path.join(dir, `sql-${Date.now()}.json`);
  writeFileSync(file, JSON.stringify(statements.map((sql, i) => ({ name: String(i), sql }))));
  const out = execFileSync(PY, [path.resolve(__dirname, '../databricks/sqlglot-check.py'), file], { encoding: 'utf8' });
  return JSON.parse(out) as { status: string; error?: string }[];
}
const statementsOf = (files: { content: string }[]) =>
  files.flatMap((f) =>
    f.content
      .split(';\n')
      .map((s) => s.trim())
      .filter(Boolean),
  );

test('workflow json: a strict Jobs 2.2 body whose SQL files hold one parsable CLONE per table; the same on every call', async () => {
  const res = await request(app).post('/api/generate/workflow').send(body).expect(200);
  const job = Jobs22.parse(res.body.job);
  expect(job.schedule).toEqual({
    quartz_cron_expression: '0 0 2 * * ?',
    timezone_id: 'Europe/Amsterdam',
    pause_status: 'UNPAUSED',
  });
  expect(job.tasks[0].task_key).toBe('setup');
  expect(job.tasks.slice(1).every((t) => t.depends_on?.[0].task_key === 'setup')).toBe(true);
  expect(new Set(job.tasks.map((t) => t.sql_task.warehouse_id))).toEqual(new Set(['wh-123']));
  expect(res.body.files.map((f: { path: string }) => f.path)).toEqual(job.tasks.map((t) => t.sql_task.file.path));
  const statements = statementsOf(res.body.files);
  const clones = statements.filter((s) => s.includes(' SHALLOW CLONE '));
  expect(clones).toHaveLength(res.body.tables);
  expect(res.body.tables).toBeGreaterThan(0);
  expect(clones[0]).toMatch(/^CREATE OR REPLACE TABLE `prod_dev`\.`\w+`\.`\w+` SHALLOW CLONE `prod`\.`\w+`\.`\w+`$/);
  // sqlglot reads CREATE CATALOG as a command (it has no structured form for it); everything else parses structured.
  const parsed = sqlglot(statements).map((r, i) => ({ ...r, sql: statements[i] }));
  expect(
    parsed.filter((r) => r.status !== 'structured' && !(r.status === 'command' && r.sql.startsWith('CREATE CATALOG'))),
  ).toEqual([]);
  const again = await request(app).post('/api/generate/workflow').send(body).expect(200);
  expect(again.body).toEqual(res.body);
});

test('workflow bundle: databricks.yml with the same job over ./sql files', async () => {
  const json = (await request(app).post('/api/generate/workflow').send(body).expect(200)).body;
  const res = await request(app)
    .post('/api/generate/workflow')
    .send({ ...body, format: 'bundle' })
    .expect(200);
  const [yml, ...sql] = res.body.files as { path: string; content: string }[];
  expect(yml.path).toBe('databricks.yml');
  const doc = YAML.parse(yml.content) as { bundle: { name: string }; resources: { jobs: Record<string, unknown> } };
  const [key] = Object.keys(doc.resources.jobs);
  const job = Jobs22.parse(doc.resources.jobs[key]);
  expect(job.tasks.map((t) => t.sql_task.file.path)).toEqual(sql.map((f) => `./${f.path}`));
  expect(sql.map((f) => f.content)).toEqual(json.files.map((f: { content: string }) => f.content));
});

test('terraform: python-hcl2 parses it and it matches the job model; ${ is escaped', async () => {
  const json = (await request(app).post('/api/generate/workflow').send(body).expect(200)).body;
  const res = await request(app).post('/api/generate/terraform').send(body).expect(200);
  const hcl = res.body.hcl as string;
  expect(hcl).toContain('"nightly $${env} copy"');
  expect(hcl).not.toMatch(/[^$]\$\{env\}/);
  const file = path.join(dir, 'main.tf');
  writeFileSync(file, hcl);
  const parsed = JSON.parse(
    execFileSync(PY, ['-c', 'import hcl2,json,sys; print(json.dumps(hcl2.load(open(sys.argv[1]))))', file], {
      encoding: 'utf8',
    }),
  ) as { resource: Record<string, Record<string, Record<string, unknown>>>[] };
  // python-hcl2 keeps the quotes of labels and strings (`"\"databricks_job\""`).
  const byType = (t: string) => parsed.resource.filter((r) => `"${t}"` in r).map((r) => Object.values(r[`"${t}"`])[0]);
  const [tfJob] = byType('databricks_job') as {
    name: string;
    task: { task_key: string; sql_task: { warehouse_id: string }[] }[];
  }[];
  const unq = (s: string) => s.replace(/^"|"$/g, '');
  expect(tfJob.task.map((t) => unq(t.task_key))).toEqual(json.job.tasks.map((t: { task_key: string }) => t.task_key));
  expect(new Set(tfJob.task.map((t) => unq(t.sql_task[0].warehouse_id)))).toEqual(new Set(['wh-123']));
  const files = byType('databricks_workspace_file') as { path: string; content_base64: string }[];
  expect(files.map((f) => Buffer.from(unq(f.content_base64), 'base64').toString('utf8'))).toEqual(
    json.files.map((f: { content: string }) => f.content),
  );
  expect(files.map((f) => unq(f.path))).toEqual(json.files.map((f: { path: string }) => f.path));
});

test('bad input names the field: a 5-field cron, an unknown clone field, a catalog that does not exist', async () => {
  const cron = await request(app)
    .post('/api/generate/workflow')
    .send({ ...body, schedule: '0 2 * * *' })
    .expect(400);
  expect(cron.body.error.details[0].path).toBe('body.schedule');
  const extra = await request(app)
    .post('/api/generate/terraform')
    .send({ ...body, where_clauses: {} })
    .expect(400);
  expect(JSON.stringify(extra.body.error.details)).toContain('where_clauses');
  await request(app)
    .post('/api/generate/workflow')
    .send({ ...body, source_catalog: 'nope' })
    .expect(404);
  await request(app)
    .post('/api/generate/workflow')
    .send({ ...body, include_schemas: ['missing'] })
    .expect(422);
});

test('lakeward generate-job writes the bundle and the Terraform into a folder', async () => {
  const server = await startServer(deps, { host: '127.0.0.1', port: 0 });
  try {
    // Asynchronous: the API answering the CLI runs in this process.
    const run = async (...args: string[]) =>
      (
        await promisify(execFile)(
          path.resolve(__dirname, '../../node_modules/.bin/tsx'),
          [path.resolve(__dirname, '../../cli/main.ts'), 'generate-job', ...args, '--url', server.url],
          { encoding: 'utf8' },
        )
      ).stdout;
    const common = ['--source', 'prod', '--dest', 'prod_cli', '--job-name', 'cli job', '--warehouse', 'wh-9'];
    const out = path.join(dir, 'cli-out');
    expect(await run('workflow', ...common, '--format', 'bundle', '--out', out)).toContain('databricks.yml');
    expect(readFileSync(path.join(out, 'databricks.yml'), 'utf8')).toContain('warehouse_id: wh-9');
    expect(readdirSync(path.join(out, 'sql'))).toContain('setup.sql');
    await run('terraform', ...common, '--out', out);
    expect(readFileSync(path.join(out, 'main.tf'), 'utf8')).toContain('resource "databricks_job" "cli_job"');
  } finally {
    await server.close(500);
  }
}, 60_000);

/** `terraform validate` needs the terraform binary and the databricks provider in a local mirror (PyPI and Debian ship neither). */
const mirror = [process.env.TF_PLUGIN_DIR, path.join(homedir(), '.terraform.d/plugins'), '/opt/tf-plugins'].find(
  (d) => d && existsSync(path.join(d, 'registry.terraform.io/databricks/databricks')),
);
const terraform = spawnSync('terraform', ['version'], { encoding: 'utf8' }).status === 0;
const why = !terraform ? 'no terraform binary' : 'no databricks/databricks provider in a local plugin mirror';
(terraform && mirror ? test : test.skip)(
  `terraform validate accepts the HCL${terraform && mirror ? '' : ` (skipped: ${why})`}`,
  async () => {
    const res = await request(app).post('/api/generate/terraform').send(body).expect(200);
    const tf = mkdtempSync(path.join(tmpdir(), 'lw-tf-'));
    writeFileSync(path.join(tf, 'main.tf'), res.body.hcl);
    execFileSync('terraform', ['init', '-backend=false', `-plugin-dir=${mirror}`], { cwd: tf });
    expect(execFileSync('terraform', ['validate', '-no-color'], { cwd: tf, encoding: 'utf8' })).toContain('Success');
    rmSync(tf, { recursive: true, force: true });
  },
  120_000,
);
