import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { bundleWorkflowCode, Worker } from '@temporalio/worker';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import request from 'supertest';
import { createActivities } from '../../activities';
import { createApp } from '../../api/app';
import type { AppDeps } from '../../api/deps';
import { openWorkspace } from '../../platform';
import { seedDemo } from '../../platform/local/demo/seed';
import type { Workspace } from '../../platform/port';
import type { Store } from '../../store/db';
import { getJob } from '../../store/jobs/jobs';
import { recentNotifications } from '../../store/notifications/repo';
import { jobQueueWorkflowId } from '../../workflows/jobs/definitions';
import { testAppDeps } from '../api/deps';
import { createTestStore } from '../helpers/db';
import { connectTestEnv, uniqueTaskQueue } from '../helpers/temporal';
import { eventually } from '../helpers/eventually';
import { WORKER_TUNING } from '../../workers/worker-tuning';

/**
 * Template-only settings, end to end: API request with a template → queue → the real clone workflow and
 * activities (the worker's production activity set) over the seeded demo lakehouse → job-end recorder.
 */
let env: TestWorkflowEnvironment;
let store: Store;
let deps: AppDeps;
let ws: Workspace;
let worker: Worker;
let running: Promise<void>;
const dirs: string[] = [];
const taskQueue = uniqueTaskQueue('tpl-effects');
const SRC = 'demo_sales';

function tempDir(name: string): string {
  const d = mkdtempSync(path.join(os.tmpdir(), `lw-${name}-`));
  dirs.push(d);
  return d;
}

/** A custom template next to the config file (`<config dir>/templates`), where the API looks for them. */
function customTemplate(configDir: string, name: string, onSuccess: boolean) {
  const doc = [
    `name: ${name}`,
    'clone_options: { clone_type: DEEP }',
    'metadata: { copy_permissions: false, copy_ownership: false }',
    `notifications: { on_success: ${onSuccess}, on_failure: true }`,
  ].join('\n');
  writeFileSync(path.join(configDir, 'templates', `${name}.yaml`), doc);
}

beforeAll(async () => {
  env = await connectTestEnv();
  store = await createTestStore();
  const root = tempDir('tpl-lake');
  const configDir = tempDir('tpl-config');
  mkdirSync(path.join(configDir, 'templates'));
  customTemplate(configDir, 'quiet-success', false);
  customTemplate(configDir, 'loud-success', true);
  mkdirSync(path.join(configDir, 'templates', 'rules'));
  writeFileSync(
    path.join(configDir, 'templates', 'rules', 'crm-mask.yaml'),
    "- { column: '^full_name$', strategy: redact }\n- { column: '^email$', strategy: hash }\n",
  );
  writeFileSync(
    path.join(configDir, 'templates', 'rule-mask.yaml'),
    'name: rule-mask\nmasking: { enabled: true, rules_file: rules/crm-mask.yaml }\n',
  );
  const configFile = path.join(configDir, 'lakeward.yaml');
  writeFileSync(configFile, `data_dir: ${JSON.stringify(tempDir('tpl-data'))}\n`);
  await seedDemo({ root, catalog: SRC });
  deps = testAppDeps({
    store,
    temporal: { client: env.client, connection: env.connection, address: env.connection.options.address },
    flags: { config: configFile },
    env: { LAKEWARD_TASK_QUEUE: taskQueue, LAKEWARD_WORKSPACE_ROOT: root },
    open: (spec) => openWorkspace(spec as never),
  });
  ws = await deps.workspaces.default();
  // The crm schema is declared to hold personal data (a schema-level tag, the demo's PII vocabulary).
  await ws.setTags({ type: 'SCHEMA', catalog: SRC, schema: 'crm' }, { contains_pii: 'true' });
  worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    ...WORKER_TUNING,
    workflowBundle: await bundleWorkflowCode({
      workflowsPath: require.resolve('../../workflows'),
      logger: { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} },
    }),
    activities: createActivities({ config: deps.config, store, client: env.client, workspaces: deps.workspaces }),
  });
  running = worker.run();
}, 120_000);

afterAll(async () => {
  await env.client.workflow
    .getHandle(jobQueueWorkflowId('clone', taskQueue))
    .terminate('test over')
    .catch(() => undefined);
  worker?.shutdown();
  await running;
  await deps?.workspaces.close();
  await store?.close();
  await env?.teardown();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Submits a clone through the API and waits for its recorded end. */
async function cloneAndWait(body: Record<string, unknown>) {
  const app = createApp(deps);
  const id = (await request(app).post('/api/clone').send(body).expect(200)).body.job_id as string;
  // The end as the recorder wrote it (the API shows Temporal's view of a closed job until then).
  await eventually(async () => Boolean((await getJob(store.db, id))?.completedAt), {
    what: `job ${id}'s recorded end (completed_at)`,
    timeoutMs: 90_000,
  });
  const job = (await request(app).get(`/api/clone/${id}`).expect(200)).body;
  return { app, id, job };
}

const schemaNames = async (catalog: string) => (await ws.listSchemas(catalog)).map((s) => s.name).sort();

test('pii-safe leaves out schemas tagged as PII and says so in the job log and warnings', async () => {
  const { job } = await cloneAndWait({
    source_catalog: SRC,
    destination_catalog: 'pii_copy',
    template: 'pii-safe',
    include_schemas: ['crm', 'ops'],
  });
  expect(job.status).toBe('completed');
  const schemas = await schemaNames('pii_copy');
  expect(schemas).toContain('ops');
  expect(schemas).not.toContain('crm');
  expect((await ws.listTables('pii_copy', 'ops')).length).toBeGreaterThan(0);
  const note = 'exclude_pii_tagged_schemas: left out PII-tagged schema(s) crm';
  expect(job.result.warnings).toContain(note);
  expect(job.logs.some((l: string) => l.includes(note))).toBe(true);
}, 120_000);

test('minimal (schema_only) creates every table with the source columns and no rows', async () => {
  const { job } = await cloneAndWait({
    source_catalog: SRC,
    destination_catalog: 'min_copy',
    template: 'minimal',
    include_schemas: ['finance'],
  });
  expect(job.status).toBe('completed');
  expect(job.result.warnings).toContain('schema_only: tables created empty via a select-based copy');
  const source = (await ws.listTables(SRC, 'finance')).filter((t) => t.tableType !== 'VIEW').map((t) => t.name);
  expect(source.length).toBeGreaterThan(0);
  for (const name of source) {
    const from = await ws.describeTable({ catalog: SRC, schema: 'finance', name });
    const to = await ws.describeTable({ catalog: 'min_copy', schema: 'finance', name });
    expect(to.columns.map((c) => [c.name, c.type])).toEqual(from.columns.map((c) => [c.name, c.type]));
    const rows = await ws.query(`SELECT count(*) AS n FROM min_copy.finance.${name}`);
    expect(Number(rows.rows[0]!.n)).toBe(0);
    const srcRows = await ws.query(`SELECT count(*) AS n FROM ${SRC}.finance.${name}`);
    expect(Number(srcRows.rows[0]!.n)).toBeGreaterThan(0);
  }
}, 120_000);

test('notifications.on_success false records no success notification; true records one', async () => {
  const quiet = await cloneAndWait({
    source_catalog: SRC,
    destination_catalog: 'quiet_copy',
    template: 'quiet-success',
    include_schemas: ['ops'],
  });
  const loud = await cloneAndWait({
    source_catalog: SRC,
    destination_catalog: 'loud_copy',
    template: 'loud-success',
    include_schemas: ['ops'],
  });
  expect([quiet.job.status, loud.job.status]).toEqual(['completed', 'completed']);
  const notes = await recentNotifications(store.db, 500);
  expect(notes.filter((n) => n.jobId === quiet.id)).toHaveLength(0);
  expect(notes.filter((n) => n.jobId === loud.id).map((n) => n.type)).toEqual(['success']);
}, 180_000);

test('audit-copy (compliance_report) stores a signed provenance envelope that the verify route accepts', async () => {
  const { app, id, job } = await cloneAndWait({
    source_catalog: SRC,
    destination_catalog: 'audit_copy',
    template: 'audit-copy',
    include_schemas: ['ops'],
  });
  expect(job.status).toBe('completed');
  const envelope = job.result.provenance;
  expect(envelope).toMatchObject({ signed: true, algorithm: 'Ed25519' });
  expect(envelope.manifest).toMatchObject({ job_id: id, source_catalog: SRC, destination_catalog: 'audit_copy' });
  expect(envelope.manifest.result.tables_cloned).toBe(job.result.tables_cloned);
  expect((await request(app).post('/api/clone-provenance/verify').send(envelope).expect(200)).body).toEqual({
    valid: true,
    reason: 'Signature verified',
  });
  const forged = { ...envelope, manifest: { ...envelope.manifest, destination_catalog: 'elsewhere' } };
  expect((await request(app).post('/api/clone-provenance/verify').send(forged).expect(200)).body.valid).toBe(false);
}, 120_000);

test('masking.rules_file picks per-column strategies, also for untagged columns', async () => {
  const { job } = await cloneAndWait({
    source_catalog: SRC,
    destination_catalog: 'rule_copy',
    template: 'rule-mask',
    include_schemas: ['crm'],
    include_tables_regex: '^contacts$',
  });
  expect(job.status).toBe('completed');
  const masked = (job.result.masking.masked as { column: string; strategy: string; pii_type: string }[]).map((m) => [
    m.column,
    m.strategy,
    m.pii_type,
  ]);
  // full_name has no PII tag (rule only); email's tag suggests `email` but the rule says hash; phone keeps its tag's.
  expect(masked).toEqual([
    ['email', 'hash', 'email'],
    ['full_name', 'redact', 'rule'],
    ['phone', 'partial', 'phone'],
  ]);
  const sql = (cat: string) =>
    `SELECT full_name, email, account_id FROM ${cat}.crm.contacts ORDER BY contact_id LIMIT 1`;
  const [src] = (await ws.query(sql(SRC))).rows;
  const [dst] = (await ws.query(sql('rule_copy'))).rows;
  expect(dst).toEqual({
    full_name: '[REDACTED]',
    email: createHash('sha256').update(String(src!.email)).digest('hex'),
    account_id: src!.account_id,
  });
}, 120_000);
