import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, utimesSync } from 'node:fs';
import path from 'node:path';
import type { Express } from 'express';
import request from 'supertest';
import { createApp } from '../../api/app';
import type { Workspace } from '../../platform/port';
import { jobQueueWorkflowId } from '../../workflows/jobs/definitions';
import { harnessAppDeps } from '../helpers/harness-app';
import { createHarness, type Harness } from '../helpers/harness';

const PYTHON = path.resolve(__dirname, '../../.venv/bin/python');
const CAT = 'lake';
const orders = { catalog: CAT, schema: 'sales', name: 'orders' };
const events = { catalog: CAT, schema: 'ops', name: 'events' };

let h: Harness;
let app: Express;
let ws: Workspace;

const dirOf = async (ref: typeof orders) => (await ws.tableDetail(ref)).location!;

beforeAll(async () => {
  h = await createHarness('storage');
  const root = h.config.workspace.root;
  ws = h.open(root);
  await ws.createCatalog({ name: CAT });
  await ws.createSchema({ catalog: CAT, name: 'sales' });
  await ws.createSchema({ catalog: CAT, name: 'ops' });
  app = createApp(harnessAppDeps(h));
});
afterAll(async () => {
  await h.env.client.workflow
    .getHandle(jobQueueWorkflowId('storage', h.taskQueue))
    .terminate('test over')
    .catch(() => undefined);
  await h?.teardown();
});

/** Every file under a folder with its size, relative and `/`-separated. */
function filesUnder(dir: string, prefix = ''): Map<string, number> {
  const out = new Map<string, number>();
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory()) for (const [k, v] of filesUnder(path.join(dir, e.name), rel)) out.set(k, v);
    else out.set(rel, statSync(path.join(dir, e.name)).size);
  }
  return out;
}

/**
 * The expected classes, computed here from the files and the commit JSON alone: live = adds minus removes,
 * tombstones with their deletionTimestamp, cdc files with their commit's timestamp, the retention from the last
 * metaData; everything else outside `_delta_log` is vacuumable.
 */
function expectedFromLog(dir: string) {
  const files = filesUnder(dir);
  const live = new Set<string>();
  const removed = new Map<string, number>();
  const cdc = new Map<string, number>();
  let retentionHours = 168;
  const commits = readdirSync(path.join(dir, '_delta_log'))
    .filter((f) => /^\d{20}\.json$/.test(f))
    .sort();
  for (const c of commits) {
    const actions = readFileSync(path.join(dir, '_delta_log', c), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    const ts = actions.find((a) => a.commitInfo)?.commitInfo.timestamp as number;
    for (const a of actions) {
      if (a.add) {
        live.add(decodeURIComponent(a.add.path));
        removed.delete(decodeURIComponent(a.add.path));
      }
      if (a.remove) {
        live.delete(decodeURIComponent(a.remove.path));
        removed.set(decodeURIComponent(a.remove.path), a.remove.deletionTimestamp);
      }
      if (a.cdc) cdc.set(decodeURIComponent(a.cdc.path), ts);
      const conf = a.metaData?.configuration?.['delta.deletedFileRetentionDuration'];
      if (a.metaData) retentionHours = conf ? Number(/(\d+)/.exec(conf)![1]) : 168;
    }
  }
  const horizon = Date.now() - retentionHours * 3600_000;
  const sums = { total: 0, active: 0, time_travel: 0, vacuumable: 0 };
  const counts = { total: 0, active: 0, time_travel: 0, vacuumable: 0 };
  for (const [file, size] of files) {
    sums.total += size;
    const when = removed.get(file) ?? cdc.get(file);
    const cls =
      file.startsWith('_delta_log/') || live.has(file)
        ? 'active'
        : when !== undefined && when >= horizon
          ? 'time_travel'
          : 'vacuumable';
    sums[cls] += size;
    counts[cls] += 1;
    counts.total += 1;
  }
  return { sums, counts, live, files };
}

const deltaRsFiles = (dir: string): string[] =>
  JSON.parse(
    execFileSync(
      PYTHON,
      [
        '-c',
        "import json,sys; from deltalake import DeltaTable; print(json.dumps([u.split(sys.argv[1].rstrip('/') + '/', 1)[-1] for u in DeltaTable(sys.argv[1]).file_uris()]))",
        dir,
      ],
      {
        encoding: 'utf8',
      },
    ),
  );

const metrics = async () =>
  (await request(app).post('/api/storage-metrics').send({ source_catalog: CAT }).expect(200)).body;
const tableRow = (body: { tables: { fqn: string }[] }, ref: typeof orders) =>
  body.tables.find((t) => t.fqn === `${ref.catalog}.${ref.schema}.${ref.name}`) as unknown as Record<string, number>;

test('a table with known history: metrics equal the sums from the files and the log, and account for every byte', async () => {
  await ws.createTable({
    ref: orders,
    columns: [
      { name: 'id', type: 'bigint' },
      { name: 'amount', type: 'double' },
    ],
  });
  await ws.insertRows(
    orders,
    [1, 2, 3].map((id) => ({ id, amount: id * 10 })),
  );
  await ws.insertRows(
    orders,
    [4, 5].map((id) => ({ id, amount: id * 10 })),
  );
  await ws.updateWhere(orders, { amount: 'amount + 1' }, 'id = 1');
  await ws.optimizeTable(orders);

  // VACUUM below 168 hours is refused unless the request says it knows the risk.
  const refused = await request(app)
    .post('/api/vacuum')
    .send({ source_catalog: CAT, tables: [{ schema: 'sales', table: 'orders' }], retention_hours: 0 })
    .expect(400);
  expect(JSON.stringify(refused.body.error.details)).toMatch(
    /retention_hours.*allow_short_retention|allow_short_retention/,
  );
  const dir = await dirOf(orders);
  const before = expectedFromLog(dir);
  const vac = await h.withWorker(async () =>
    request(app)
      .post('/api/vacuum')
      .send({
        source_catalog: CAT,
        tables: [{ schema: 'sales', table: 'orders' }],
        retention_hours: 0,
        allow_short_retention: true,
      })
      .expect(200),
  );
  expect(vac.body).toMatchObject({ operation: 'vacuum', status: 'completed', total: 1, succeeded: 1, failed: 0 });
  // Every file the update and OPTIMIZE removed went, with its bytes.
  expect(vac.body.results[0].files_removed).toBe(before.counts.time_travel + before.counts.vacuumable);
  expect(vac.body.bytes_removed).toBe(before.sums.time_travel + before.sums.vacuumable);
  for (const f of vac.body.results[0].files) expect(existsSync(path.join(dir, f))).toBe(false);

  // More history after the vacuum: an update (time travel), an orphan file and a crashed write's staging folder.
  await ws.updateWhere(orders, { amount: 'amount * 2' }, 'id = 2');
  const dataFile = [...expectedFromLog(dir).live][0];
  copyFileSync(path.join(dir, dataFile), path.join(dir, 'part-orphan.snappy.parquet'));
  const staging = path.join(dir, `_lakeward_staging_${randomUUID()}`);
  mkdirSync(staging);
  copyFileSync(path.join(dir, dataFile), path.join(staging, 'part-00000-x.c000.snappy.parquet'));

  // A second table whose removed files are already past its retention (0 hours), with change data files.
  await ws.createTable({
    ref: events,
    columns: [
      { name: 'id', type: 'bigint' },
      { name: 'kind', type: 'string' },
    ],
    properties: { 'delta.enableChangeDataFeed': 'true' },
  });
  for (let i = 0; i < 4; i++) await ws.insertRows(events, [{ id: i, kind: `k${i}` }]);
  await ws.updateWhere(events, { kind: "'changed'" }, 'id = 0');
  await ws.setProperties(events, { 'delta.deletedFileRetentionDuration': 'interval 0 hours' });

  const body = await metrics();
  for (const ref of [orders, events]) {
    const d = await dirOf(ref);
    const want = expectedFromLog(d);
    const row = tableRow(body, ref);
    expect({
      total: row.total_bytes,
      active: row.active_bytes,
      time_travel: row.time_travel_bytes,
      vacuumable: row.vacuumable_bytes,
    }).toEqual(want.sums);
    expect(row.active_bytes + row.time_travel_bytes + row.vacuumable_bytes).toBe(row.total_bytes);
    expect(row.num_total_files).toBe(want.files.size);
    // delta-rs agrees on the live files.
    expect(deltaRsFiles(d).sort()).toEqual([...want.live].sort());
  }
  const o = tableRow(body, orders);
  expect(o.time_travel_bytes).toBeGreaterThan(0); // the update's removed file, inside the week
  expect(o.vacuumable_bytes).toBe(2 * statSync(path.join(dir, dataFile)).size); // orphan + staging copy
  const e = tableRow(body, events);
  expect(e.time_travel_bytes).toBe(0);
  expect(e.vacuumable_bytes).toBeGreaterThan(0); // removed file + change data past a 0-hour retention

  // Catalog and schema sums, displays, percentages and the top lists.
  expect(body).toMatchObject({ catalog: CAT, num_schemas: 2, num_tables: 2, exact: true });
  expect(body.total_bytes).toBe(o.total_bytes + e.total_bytes);
  expect(body.active_bytes + body.time_travel_bytes + body.vacuumable_bytes).toBe(body.total_bytes);
  expect(body.schema_summaries.map((s: { schema_name: string }) => s.schema_name)).toEqual(['ops', 'sales']);
  expect(body.active_pct).toBe(Math.round((body.active_bytes / body.total_bytes) * 1000) / 10);
  expect(body.total_display).toMatch(/^\d+(\.\d)? (B|KB)$/);
  expect(body.top_tables_by_total[0].total_bytes).toBe(Math.max(o.total_bytes, e.total_bytes));
  expect(body.top_tables_by_vacuumable.map((t: { fqn: string }) => t.fqn).sort()).toEqual([
    'lake.ops.events',
    'lake.sales.orders',
  ]);

  // Filters: one schema.
  const only = (
    await request(app).post('/api/storage-metrics').send({ source_catalog: CAT, schema_filter: 'sal*' }).expect(200)
  ).body;
  expect(only.tables.map((t: { fqn: string }) => t.fqn)).toEqual(['lake.sales.orders']);
});

test("VACUUM removes a crashed write's staging folder once past retention, and keeps a write in progress", async () => {
  const dir = await dirOf(orders);
  const live = [...expectedFromLog(dir).live][0];
  const crashed = path.join(dir, `_lakeward_staging_${randomUUID()}`);
  mkdirSync(path.join(crashed, 'region=EU'), { recursive: true });
  const leftover = path.join(crashed, 'region=EU', 'part-00000-y.c000.snappy.parquet');
  copyFileSync(path.join(dir, live), leftover);
  const old = new Date(Date.now() - 8 * 24 * 3600_000);
  utimesSync(leftover, old, old);
  utimesSync(path.join(crashed, 'region=EU'), old, old);
  utimesSync(crashed, old, old);
  const res = await h.withWorker(async () =>
    request(app)
      .post('/api/vacuum')
      .send({ source_catalog: CAT, tables: [{ schema: 'sales', table: 'orders' }] })
      .expect(200),
  );
  expect(res.body.retention_hours).toBe(168);
  expect(res.body.results[0].files).toContain(`${path.basename(crashed)}/region=EU/part-00000-y.c000.snappy.parquet`);
  expect(existsSync(crashed)).toBe(false);
  // The staging folder of the first test is young (a write could still be running): kept, as is the orphan.
  expect(readdirSync(dir).filter((n) => n.startsWith('_lakeward_staging_'))).toHaveLength(1);
  expect(existsSync(path.join(dir, 'part-orphan.snappy.parquet'))).toBe(true);
});

test("a shallow clone's referenced files survive a VACUUM of its source and count as active", async () => {
  const clone = { catalog: CAT, schema: 'sales', name: 'orders_dev' };
  await ws.cloneTable({ source: orders, target: clone, cloneType: 'SHALLOW' });
  const before = (await ws.query(`SELECT count(*) AS n, sum(amount) AS s FROM ${CAT}.sales.orders_dev`)).rows[0];
  await ws.updateWhere(orders, { amount: '0' }, 'true'); // removes every file the clone reads
  const res = await h.withWorker(async () =>
    request(app)
      .post('/api/vacuum')
      .send({
        source_catalog: CAT,
        tables: [{ schema: 'sales', table: 'orders' }],
        retention_hours: 0,
        allow_short_retention: true,
      })
      .expect(200),
  );
  expect(res.body.results[0].status).toBe('succeeded');
  const after = (await ws.query(`SELECT count(*) AS n, sum(amount) AS s FROM ${CAT}.sales.orders_dev`)).rows[0];
  expect(after).toEqual(before);
  const row = tableRow(await metrics(), orders);
  expect(row.time_travel_bytes).toBe(0);
  expect(row.active_bytes + row.vacuumable_bytes).toBe(row.total_bytes);
});

test('OPTIMIZE as a job compacts small files; dry runs change nothing; predictive optimization recommends', async () => {
  const pre = await request(app).post('/api/check-predictive-optimization').send({ source_catalog: CAT }).expect(200);
  const ev = pre.body.tables.find((t: { fqn: string }) => t.fqn === 'lake.ops.events');
  expect(ev).toMatchObject({ predictive_optimization: 'disabled', recommendation: 'optimize_and_vacuum' });
  expect(pre.body.summary.recommend_optimize).toBeGreaterThanOrEqual(1);

  const version = (await ws.tableHistory(events, 1))[0].version;
  const dry = await h.withWorker(async () =>
    request(app)
      .post('/api/optimize')
      .send({ source_catalog: CAT, tables: [{ schema: 'ops', table: 'events' }], dry_run: true })
      .expect(200),
  );
  expect(dry.body.results[0]).toMatchObject({ status: 'dry_run', files_removed: 0 });
  expect((await ws.tableHistory(events, 1))[0].version).toBe(version);

  const rowsBefore = (await ws.query(`SELECT * FROM ${CAT}.ops.events ORDER BY id`)).rows;
  const all = await h.withWorker(async () =>
    request(app).post('/api/optimize').send({ source_catalog: CAT }).expect(200),
  );
  expect(all.body).toMatchObject({ operation: 'optimize', status: 'completed', failed: 0 });
  expect(all.body.total).toBe(3); // orders, orders_dev, events
  const e = all.body.results.find((r: { table: string }) => r.table === 'events');
  expect(e).toMatchObject({ status: 'succeeded', files_added: 1 });
  expect(e.files_removed).toBeGreaterThanOrEqual(4);
  expect((await ws.query(`SELECT * FROM ${CAT}.ops.events ORDER BY id`)).rows).toEqual(rowsBefore);

  // The job is a kernel job: listed with its type and its run log.
  const job = (await request(app).get(`/api/jobs/${all.body.job_id}`).expect(200)).body;
  expect(job).toMatchObject({ job_type: 'storage', status: 'completed' });
});

test('bad requests name the field; an unknown catalog is 404', async () => {
  const bad = await request(app)
    .post('/api/storage-metrics')
    .send({ source_catalog: 'lake', schema_filter: 'a b' })
    .expect(400);
  expect(JSON.stringify(bad.body.error.details)).toMatch(/schema_filter/);
  await request(app).post('/api/storage-metrics').send({ source_catalog: 'nope' }).expect(404);
  await request(app).post('/api/vacuum').send({ source_catalog: 'nope' }).expect(404);
});
