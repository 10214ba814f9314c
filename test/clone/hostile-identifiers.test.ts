import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import request from 'supertest';
import { createApp } from '../../api/app';
import { openWorkspace } from '../../platform';
import { ident } from '../../platform/databricks/sql/quote';
import { cloneRequestSchema } from '../../schemas/clone';
import type { Store } from '../../store/db';
import { listJobs } from '../../store/jobs/jobs';
import { testAppDeps } from '../api/deps';
import { createTestStore } from '../helpers/db';
import { connectTestEnv, uniqueTaskQueue } from '../helpers/temporal';

/**
 * Hostile names in every identifier field of POST /api/clone are refused with a 4xx naming the field, never
 * a 500, and nothing is queued. Two classes of characters:
 * - refused by the schema for every workspace (400): control characters (NUL, newline), bidi overrides,
 *   `..`, `/` and names over 255 characters;
 * - backtick and quotes: legal inside a quoted Databricks identifier (Lakeward quotes every identifier it
 *   sends, so they are accepted for Databricks), but the local lakehouse turns names into folder names and
 *   takes letters, digits, `_` and `-` only, so for a local workspace they are refused before queueing (422).
 */

let env: TestWorkflowEnvironment;
let store: Store;
let dataDir: string;
let app: ReturnType<typeof createApp>;
beforeAll(async () => {
  [env, store] = await Promise.all([connectTestEnv(), createTestStore()]);
  dataDir = mkdtempSync(path.join(tmpdir(), 'lakeward-hostile-'));
  const deps = testAppDeps({
    store,
    temporal: { client: env.client, connection: env.connection, address: env.connection.options.address },
    env: { LAKEWARD_TASK_QUEUE: uniqueTaskQueue('hostile') },
    flags: { dataDir },
    open: (spec) => openWorkspace(spec as never),
  });
  await (await deps.workspaces.default()).createCatalog({ name: 'sales' });
  app = createApp(deps);
});
afterAll(async () => {
  await Promise.all([store?.close(), env?.teardown()]);
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const REFUSED_EVERYWHERE: [string, string][] = [
  ['NUL', 'a\u0000b'],
  ['newline', 'a\nb'],
  ['tab', 'a\tb'],
  ['right-to-left override U+202E', 'abc\u202Egpj.exe'],
  ['..', 'a..b'],
  ['/', 'a/b'],
  ['300 characters', 'x'.repeat(300)],
];
const QUOTING: [string, string][] = [
  ['backtick', 'a`b'],
  ['double quote', 'a"b'],
  ['single quote', "a'b"],
];

const base = { source_catalog: 'sales', destination_catalog: 'sales_dev' };
const databricksTarget = { host: 'https://example.cloud.databricks.com', warehouse_id: 'wh1' };
type Field = [path: string, body: (v: string) => Record<string, unknown>];

/** Names the local lakehouse reads or writes: refused for both classes of characters. */
const LOCAL_NAME_FIELDS: Field[] = [
  ['source_catalog', (v) => ({ ...base, source_catalog: v })],
  ['source_catalog', (v) => ({ source: v, destination_catalog: 'sales_dev' })],
  ['destination_catalog', (v) => ({ ...base, destination_catalog: v })],
  ['destination_catalog', (v) => ({ source_catalog: 'sales', destination: v })],
  ['include_schemas.1', (v) => ({ ...base, include_schemas: ['ok', v] })],
  ['exclude_schemas.0', (v) => ({ ...base, exclude_schemas: [v] })],
  ['include_objects.0.schema', (v) => ({ ...base, include_objects: [{ schema: v, name: 't', type: 'table' }] })],
  ['include_objects.0.name', (v) => ({ ...base, include_objects: [{ schema: 's', name: v, type: 'table' }] })],
  [
    'target_workspace.destination_catalog',
    (v) => ({ ...base, target_workspace: { root: path.join(dataDir, 'other'), destination_catalog: v } }),
  ],
  [
    'target_workspaces.1.destination_catalog',
    (v) => ({
      ...base,
      target_workspaces: [databricksTarget, { root: path.join(dataDir, 'other'), destination_catalog: v }],
    }),
  ],
];

/** Other identifier fields: refused by the schema (the quoting class may be legal there, see above). */
const OTHER_FIELDS: Field[] = [
  ['warehouse_id', (v) => ({ ...base, warehouse_id: v })],
  ['volume', (v) => ({ ...base, volume: v })],
  ['template', (v) => ({ ...base, template: v })],
  [
    'target_workspace.destination_catalog',
    (v) => ({ ...base, target_workspace: { ...databricksTarget, destination_catalog: v } }),
  ],
  ['target_workspace.warehouse_id', (v) => ({ ...base, target_workspace: { ...databricksTarget, warehouse_id: v } })],
  ['target_workspace.name', (v) => ({ ...base, target_workspace: { name: v } })],
  ['target_workspace.profile', (v) => ({ ...base, target_workspace: { ...databricksTarget, profile: v } })],
  ['target_workspace.client_id', (v) => ({ ...base, target_workspace: { ...databricksTarget, client_id: v } })],
  ['target_workspace.tenant_id', (v) => ({ ...base, target_workspace: { ...databricksTarget, tenant_id: v } })],
  [`where_clauses.{value}`, (v) => ({ ...base, where_clauses: { [v]: 'id > 1' } })],
  [`clone_tbl_properties.{value}`, (v) => ({ ...base, clone_tbl_properties: { [v]: 'x' } })],
];

const jobCount = async () => (await listJobs(store.db, { jobType: 'clone', limit: 1000 })).length;

async function expectRefused(body: Record<string, unknown>, field: string, statuses: number[]) {
  const res = await request(app).post('/api/clone').send(body);
  const seen = `${res.status} ${JSON.stringify(res.body)}`;
  if (!statuses.includes(res.status))
    throw new Error(`expected ${statuses.join(' or ')} naming body.${field}, got ${seen}`);
  expect(res.body.error.code).toBe('VALIDATION_ERROR');
  const paths = res.body.error.details.map((d: { path: string }) => d.path);
  expect(paths).toContain(`body.${field}`);
}

describe.each(REFUSED_EVERYWHERE)('%s', (_label, value) => {
  test.each([...LOCAL_NAME_FIELDS, ...OTHER_FIELDS])('in %s: 400 naming the field', async (field, body) => {
    const before = await jobCount();
    await expectRefused(body(value), field.replace('{value}', value), [400]);
    expect(await jobCount()).toBe(before);
  });
});

describe.each(QUOTING)('%s', (_label, value) => {
  test.each(LOCAL_NAME_FIELDS)('in %s on a local workspace: refused naming the field', async (field, body) => {
    const before = await jobCount();
    await expectRefused(body(value), field, [400, 422]);
    expect(await jobCount()).toBe(before);
  });

  test('is accepted by the request schema for Databricks and reaches SQL quoted', () => {
    const parsed = cloneRequestSchema.parse({
      ...base,
      target_workspace: { ...databricksTarget, destination_catalog: value },
    });
    expect(parsed.target_workspace?.destination_catalog).toBe(value);
    expect(ident(value)).toBe('`' + value.replace(/`/g, '``') + '`');
  });
});
