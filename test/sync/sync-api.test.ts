import request from 'supertest';
import { createApp } from '../../api/app';
import { metadataCacheFor } from '../../api/cache';
import type { AppDeps } from '../../api/deps';
import { seedDemo } from '../../platform/local/demo/seed';
import type { Workspace } from '../../platform/port';
import { readRunLog } from '../../store/jobs/run-logs';
import { jobQueueWorkflowId } from '../../workflows/jobs/definitions';
import { eventually, type WorkerOptions } from '../helpers/harness';
import { realStack, type RealStack } from '../jobs/real-stack';

/**
 * Incremental sync, two-way sync and the estimate's selective block through the API on the real stack (Temporal
 * dev server, the worker's real activities, the store, a local lakehouse with the demo catalog).
 */
let stack: RealStack;
let deps: AppDeps;
let app: ReturnType<typeof createApp>;
let worker: WorkerOptions;
let ws: Workspace;
const SRC = 'demo_sales';
const DST = 'demo_sales_dev';
const t = (catalog: string, name: string, schema = 'sales') => ({ catalog, schema, name });

beforeAll(async () => {
  stack = await realStack('sync');
  await seedDemo({ root: stack.root, catalog: SRC, scale: 'small' });
  deps = stack.appDeps();
  app = createApp(deps);
  worker = { deps: { workspaces: deps.workspaces } };
  ws = stack.h.open(stack.root);
}, 180_000);
afterAll(async () => {
  for (const type of ['incremental_sync', 'sync'])
    await stack?.h.env.client.workflow
      .getHandle(jobQueueWorkflowId(type, stack.h.taskQueue))
      .terminate('test over')
      .catch(() => undefined);
  await stack?.teardown();
});

async function finished(jobId: string) {
  return eventually(
    async () => {
      const job = (await request(app).get(`/api/jobs/${jobId}`).expect(200)).body;
      return job.completed_at ? job : null;
    },
    { timeoutMs: 120_000, what: `the end of job ${jobId}` },
  );
}

/** Every table, view, function and volume of the destination with the table versions: what a write would change. */
async function destinationState() {
  const out: string[] = [];
  for (const s of await ws.listSchemas(DST)) {
    for (const x of await ws.listTables(DST, s.name))
      out.push(`table ${s.name}.${x.name}@${(await ws.describeTable(t(DST, x.name, s.name))).version}`);
    for (const x of await ws.listViews(DST, s.name)) out.push(`view ${s.name}.${x.name}`);
    for (const x of await ws.listFunctions(DST, s.name)) out.push(`function ${s.name}.${x.name}`);
    for (const x of await ws.listVolumes(DST, s.name)) out.push(`volume ${s.name}.${x.name}`);
  }
  return out.sort();
}

const check = (schema = 'sales') =>
  request(app)
    .post('/api/incremental/check')
    .send({ source_catalog: SRC, destination_catalog: DST, schema_name: schema })
    .expect(200);

test('demo catalog: check lists exactly the changed and new tables, sync by MERGE and copy reaches checksum equality, two-way sync drops exactly the extra', async () => {
  await stack.h.withWorker(async () => {
    // Before any clone: the estimate has no selective block, every table is new.
    const before = (
      await request(app).post('/api/estimate').send({ source_catalog: SRC, destination_catalog: DST }).expect(200)
    ).body;
    expect(before.selective).toBeNull();
    expect(before.throughput.source).toBe('default');
    expect(before.total_tables).toBeGreaterThan(10);
    expect(before.estimated_seconds.DEEP).toBeGreaterThan(before.estimated_seconds.SHALLOW);

    const clone = await request(app)
      .post('/api/clone')
      .send({ source_catalog: SRC, destination_catalog: DST, clone_type: 'DEEP' })
      .expect(200);
    expect((await finished(clone.body.job_id)).status).toBe('completed');

    const fresh = (await check()).body;
    expect(fresh.tables_needing_sync).toBe(0);
    expect(fresh.tables.every((x: { reason: string }) => x.reason === 'in_sync')).toBe(true);

    // Change the source: an update (orders has change data feed and a key), a schema change, a new table, a drop.
    await ws.updateWhere(t(SRC, 'orders'), { status: "'RETURNED'" }, 'order_id % 50 = 0');
    await ws.deleteWhere(t(SRC, 'orders'), 'order_id = 7');
    await ws.createTableAs({
      ref: t(SRC, 'products'),
      query: `SELECT *, 'web' AS channel FROM ${SRC}.sales.products`,
      replace: true,
    });
    await ws.createTableAs({ ref: t(SRC, 'gift_cards'), query: 'SELECT 1 AS card_id, 25.0 AS balance' });
    await ws.dropTable(t(SRC, 'promotions'));

    const changed = (await check()).body;
    const needing = changed.tables.filter((x: { needs_sync: boolean }) => x.needs_sync);
    expect(needing.map((x: { table: string; reason: string; path: string }) => [x.table, x.reason, x.path])).toEqual([
      ['gift_cards', 'new', 'copy'],
      ['orders', 'source_changed', 'merge'],
      ['products', 'schema_changed', 'copy'],
    ]);
    expect(changed.tables_needing_sync).toBe(3);
    const orders = needing.find((x: { table: string }) => x.table === 'orders');
    expect(orders.current_version).toBeGreaterThan(orders.recorded_version);
    expect(orders.merge_keys).toEqual(['order_id']);
    expect(changed.tables.map((x: { table: string }) => x.table)).not.toContain('promotions');

    // The estimate's selective block counts what the check counts, over the whole catalog.
    const est = (
      await request(app).post('/api/estimate').send({ source_catalog: SRC, destination_catalog: DST }).expect(200)
    ).body;
    expect(est.throughput.source).toBe('history');
    let needed = 0;
    for (const s of await ws.listSchemas(SRC))
      if (s.name !== 'information_schema') needed += (await check(s.name)).body.tables_needing_sync;
    // sales: the three above; ops.sensor_readings_raw is Parquet (no versions), so it is copied on every sync.
    expect(needed).toBe(4);
    expect(est.selective).toMatchObject({ target_exists: true, tables_to_clone: needed });
    expect(est.selective.tables_in_sync).toBe(est.total_tables - needed);
    expect(est.selective.recommended).toBe(est.selective.savings_pct >= 50 ? 'SELECTIVE' : 'FULL');

    // The estimate's listings sit in the metadata cache, tagged with the source catalog.
    const { cache, watcher } = metadataCacheFor(deps);
    expect(cache.stats().size).toBeGreaterThan(0);

    // Incremental sync: orders by MERGE, products and gift_cards by copy; then row equality by checksum.
    const accepted = (
      await request(app)
        .post('/api/incremental/sync')
        .send({ source_catalog: SRC, destination_catalog: DST, schema_name: 'sales' })
        .expect(200)
    ).body;
    expect(accepted).toMatchObject({ status: 'queued' });
    expect(accepted.job_id).toMatch(/^incremental_sync-/);
    const job = await finished(accepted.job_id);
    expect(job).toMatchObject({ status: 'completed', job_type: 'incremental_sync' });
    for (const name of ['orders', 'products', 'gift_cards'])
      expect(await ws.tableChecksum(t(DST, name))).toBe(await ws.tableChecksum(t(SRC, name)));
    const history = await ws.tableHistory(t(DST, 'orders'), 1);
    expect(history[0].operation).toBe('MERGE');
    const log = (await readRunLog(stack.h.store.db, accepted.job_id)).map((l) => l.message);
    expect(log.some((m) => /^sales\.orders: MERGE of \d+ change rows by order_id/.test(m))).toBe(true);
    expect(log).toContain('sales.products: full copy (schema_changed: columns differ)');
    expect(log.some((m) => m.startsWith('sales.gift_cards: full copy (new'))).toBe(true);
    expect((await check()).body.tables_needing_sync).toBe(0);
    // Its end drops the cached listings of both catalogs.
    await watcher.sync();
    expect(cache.stats().size).toBe(0);

    // Two-way sync: the dry run plans dropping exactly promotions and changes nothing.
    const state = await destinationState();
    const plan = (
      await request(app)
        .post('/api/sync')
        .send({ source_catalog: SRC, destination_catalog: DST, drop_extra: true, dry_run: true })
        .expect(200)
    ).body;
    expect(plan.dry_run).toBe(true);
    const planned = plan.actions.map((a: { action: string; schema: string; name: string }) => [
      a.action,
      a.schema,
      a.name,
    ]);
    // The Parquet table has no versions, so every sync copies it again; everything else is in step.
    expect(planned).toEqual([
      ['resync_table', 'ops', 'sensor_readings_raw'],
      ['drop_table', 'sales', 'promotions'],
    ]);
    expect(await destinationState()).toEqual(state);

    const sync = (
      await request(app)
        .post('/api/sync')
        .send({ source_catalog: SRC, destination_catalog: DST, drop_extra: true })
        .expect(200)
    ).body;
    expect((await finished(sync.job_id)).status).toBe('completed');
    const unversioned = (list: string[]) => list.map((x) => x.replace(/^(table ops\.sensor_readings_raw)@\d+$/, '$1'));
    expect(unversioned(await destinationState())).toEqual(
      unversioned(state.filter((x) => !x.startsWith('table sales.promotions@'))),
    );
  }, worker);
}, 600_000);

test('hostile names and bad fields get a 4xx naming the field; nothing is queued', async () => {
  const cases: [string, Record<string, unknown>, string][] = [
    [
      '/api/incremental/check',
      { source_catalog: SRC, destination_catalog: DST, schema_name: '../etc' },
      'body.schema_name',
    ],
    [
      '/api/incremental/check',
      { source_catalog: 'a/b', destination_catalog: DST, schema_name: 'sales' },
      'body.source_catalog',
    ],
    [
      '/api/incremental/sync',
      { source_catalog: SRC, destination_catalog: 'x\u202ey', schema_name: 'sales' },
      'body.destination_catalog',
    ],
    [
      '/api/incremental/sync',
      { source_catalog: SRC, destination_catalog: DST, schema_name: 'sales', clone_type: 'WIDE' },
      'body.clone_type',
    ],
    [
      '/api/sync',
      { source_catalog: SRC, destination_catalog: DST, include_schemas: ['ok', 'bad\nname'] },
      'body.include_schemas.1',
    ],
    ['/api/sync', { source_catalog: SRC, destination_catalog: DST, drop_extra: 'yes' }, 'body.drop_extra'],
    ['/api/estimate', { source_catalog: '', destination_catalog: DST }, 'body.source_catalog'],
    [
      '/api/estimate',
      { source_catalog: SRC, destination_catalog: DST, predicate: '1=1; DROP TABLE x' },
      'body.predicate',
    ],
  ];
  for (const [path, body, field] of cases) {
    const res = await request(app).post(path).send(body);
    expect([path, res.status]).toEqual([path, 400]);
    expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain(field);
  }
  // A name the local lakehouse cannot hold: 422 naming it; an unknown schema: 404 naming it.
  const local = await request(app)
    .post('/api/incremental/check')
    .send({ source_catalog: SRC, destination_catalog: 'dev`; DROP', schema_name: 'sales' });
  expect(local.status).toBe(422);
  expect(local.body.error.details[0].path).toBe('body.destination_catalog');
  const missing = await request(app)
    .post('/api/incremental/sync')
    .send({ source_catalog: SRC, destination_catalog: DST, schema_name: 'nope' });
  expect(missing.status).toBe(404);
  expect(missing.body.error.details[0].path).toBe('body.schema_name');
  const jobs = (await request(app).get('/api/jobs?type=incremental_sync').expect(200)).body;
  expect(JSON.stringify(jobs)).not.toContain('nope');
});
