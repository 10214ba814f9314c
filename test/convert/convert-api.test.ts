import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Express } from 'express';
import request from 'supertest';
import { createApp } from '../../api/app';
import { LocalWorkspace } from '../../platform/local/workspace';
import { duckString, withDuck } from '../../platform/local/duck';
import type { Workspace } from '../../platform/port';
import { recentAudit } from '../../store/audit/repo';
import { createTestStore } from '../helpers/db';
import type { Store } from '../../store/db';
import { testAppDeps } from '../api/deps';
import { asText, pyiceberg } from './oracles';

const PYTHON = path.resolve(__dirname, '../../.venv/bin/python');
const C = 'conv';
let root: string;
let ws: Workspace;
let store: Store;
let app: Express;

const ref = (name: string) => ({ catalog: C, schema: 's', name });
const fqn = (name: string) => `${C}.s.${name}`;
const rows = async (name: string) => (await ws.query(`SELECT * FROM ${fqn(name)}`)).rows;
const convert = (body: Record<string, unknown>, status = 200, on: Express = app) =>
  request(on).post('/api/convert-to-delta').send(body).expect(status);
const deltaRs = (dir: string) =>
  JSON.parse(
    execFileSync(
      PYTHON,
      [
        '-c',
        // os._exit: delta-rs's runtime can abort at interpreter exit after a read ("terminate called …").
        'import json,os,sys; from deltalake import DeltaTable; t=DeltaTable(sys.argv[1]); ' +
          'print(json.dumps({"rows": [{k: (None if v is None else str(v)) for k, v in r.items()} for r in t.to_pyarrow_table().to_pylist()], "partitions": t.metadata().partition_columns}), flush=True); os._exit(0)',
        dir,
      ],
      { encoding: 'utf8' },
    ),
  ) as { rows: Record<string, string | null>[]; partitions: string[] };

async function deltaTable(name: string) {
  await ws.createTable({
    ref: ref(name),
    columns: [
      { name: 'id', type: 'bigint' },
      { name: 'city', type: 'string' },
    ],
  });
  await ws.insertRows(ref(name), [
    { id: 1, city: 'oslo' },
    { id: 2, city: 'rome' },
  ]);
  await ws.insertRows(ref(name), [{ id: 3, city: null }]);
}

beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), 'lw-convert-'));
  ws = new LocalWorkspace({ root, user: 'lakeward' });
  await ws.createCatalog({ name: C });
  await ws.createSchema({ catalog: C, name: 's' });
  store = await createTestStore();
  app = createApp(testAppDeps({ store, open: async () => ws }));
});
afterAll(async () => {
  await ws.close();
  await store?.close();
  rmSync(root, { recursive: true, force: true });
});

test('confirmation, HUDI pairs and identity pairs: 400, 422 naming fqn and source→target, skipped with no SQL', async () => {
  await deltaTable('plain');
  const no = await convert({ targets: [{ fqn: fqn('plain'), source_format: 'DELTA', target_format: 'PARQUET' }] }, 400);
  expect(JSON.stringify(no.body.error.details)).toMatch(/confirm_destructive/);
  const hudi = await convert(
    {
      confirm_destructive: true,
      targets: [
        { fqn: fqn('plain'), source_format: 'DELTA', target_format: 'HUDI' },
        { fqn: fqn('plain'), source_format: 'delta', target_format: 'parquet' },
        { fqn: 'conv.s.h', source_format: 'HUDI' },
      ],
    },
    422,
  );
  expect(hudi.body.error.message).toContain('conv.s.plain (DELTA→HUDI)');
  expect(hudi.body.error.message).toContain('conv.s.h (HUDI→DELTA)');
  expect(hudi.body.error.message).not.toContain('PARQUET');
  const version = (await ws.tableHistory(ref('plain'), 1))[0].version;
  const same = await convert({
    confirm_destructive: true,
    targets: [
      { fqn: fqn('plain'), source_format: 'DELTA' },
      { fqn: fqn('plain'), source_format: 'PARQUET', target_format: 'PARQUET' },
      { fqn: fqn('plain'), source_format: 'ICEBERG', target_format: 'ICEBERG' },
    ],
  });
  expect(same.body).toMatchObject({ total: 3, skipped: 3, converted: 0, failed: 0 });
  for (const r of same.body.results) expect(r).toMatchObject({ status: 'skipped', strategy_used: null, steps: [] });
  expect((await ws.tableHistory(ref('plain'), 1))[0].version).toBe(version);
});

test('dry run: every strategy returns its plan of labelled steps and statements; nothing changes', async () => {
  const body = await convert({
    dry_run: true,
    keep_backup: true,
    targets: [
      { fqn: fqn('plain'), source_format: 'PARQUET', target_format: 'DELTA' },
      { fqn: fqn('plain'), source_format: 'DELTA', target_format: 'ICEBERG' },
      { fqn: fqn('plain'), source_format: 'PARQUET', target_format: 'ICEBERG' },
      { fqn: fqn('plain'), source_format: 'DELTA', target_format: 'PARQUET' },
    ],
  });
  const plans = body.body.results.map((r: { strategy_used: string; steps: { label: string; statement: string }[] }) => [
    r.strategy_used,
    r.steps.map((s) => s.label),
  ]);
  expect(plans).toEqual([
    ['convert_to_delta', ['convert to delta']],
    ['uniform', ['disable deletion vectors', 'purge deletion vectors', 'set interoperability properties']],
    ['ctas_iceberg', ['create temp table', 'rename source aside', 'rename temp to original']],
    ['ctas_parquet', ['create temp table', 'rename source aside', 'rename temp to original']],
  ]);
  const ctas = body.body.results[2].steps.map((s: { statement: string }) => s.statement);
  expect(ctas[0]).toBe('CREATE TABLE `conv`.`s`.`plain_convert_tmp` USING iceberg AS SELECT * FROM `conv`.`s`.`plain`');
  expect(ctas[1]).toMatch(/^ALTER TABLE `conv`\.`s`\.`plain` RENAME TO `conv`\.`s`\.`plain_pre_convert_\d{14}`$/);
  expect(body.body.results[1].steps[2].statement).toContain("'delta.universalFormat.enabledFormats' = 'iceberg'");
  for (const r of body.body.results) expect(r).toMatchObject({ status: 'skipped', error: 'dry-run' });
  expect((await ws.describeTable(ref('plain'))).format).toBe('DELTA');
});

test('PARQUET → DELTA: CONVERT TO DELTA over partitioned key=value folders, rows unchanged, delta-rs agrees', async () => {
  const dir = path.join(root, 'external', 'sales_pq');
  mkdirSync(dir, { recursive: true });
  await withDuck((c) =>
    c.run(
      `COPY (SELECT * FROM (VALUES (1::BIGINT, 'eu', 10.5), (2, 'us', 3.0), (3, 'eu', 7.25)) t(id, region, amount)) ` +
        `TO ${duckString(dir)} (FORMAT parquet, PARTITION_BY (region))`,
    ),
  );
  await ws.createTable({
    ref: ref('sales_pq'),
    format: 'PARQUET',
    location: dir,
    columns: [
      { name: 'id', type: 'bigint' },
      { name: 'amount', type: 'double' },
      { name: 'region', type: 'string' },
    ],
  });
  const before = asText(await rows('sales_pq'));
  const res = await convert({
    confirm_destructive: true,
    targets: [{ fqn: fqn('sales_pq'), source_format: 'PARQUET' }],
  });
  expect(res.body.results[0]).toMatchObject({ status: 'converted', strategy_used: 'convert_to_delta', error: null });
  const d = await ws.describeTable(ref('sales_pq'));
  expect(d.format).toBe('DELTA');
  expect(d.partitionColumns).toEqual(['region']);
  expect(asText(await rows('sales_pq'))).toEqual(before);
  const theirs = deltaRs(dir);
  expect(theirs.partitions).toEqual(['region']);
  expect(asText(theirs.rows)).toEqual(before);
});

test('ICEBERG → DELTA lists the current snapshot only; ICEBERG → PARQUET and PARQUET → ICEBERG by CTAS', async () => {
  await ws.createTable({
    ref: ref('ice'),
    format: 'ICEBERG',
    columns: [
      { name: 'id', type: 'bigint' },
      { name: 'tag', type: 'string' },
    ],
  });
  await ws.insertRows(ref('ice'), [{ id: 1, tag: 'old' }]);
  await ws.overwriteQuery(ref('ice'), "SELECT 2 AS id, 'new' AS tag UNION ALL SELECT 3, 'new'");
  await ws.createTable({ ref: ref('ice2'), format: 'ICEBERG', columns: [{ name: 'n', type: 'int' }] });
  await ws.insertRows(ref('ice2'), [{ n: 7 }, { n: 8 }]);
  await ws.createTable({ ref: ref('pq'), format: 'PARQUET', columns: [{ name: 'k', type: 'string' }] });
  await ws.insertRows(ref('pq'), [{ k: 'a' }, { k: 'b' }]);
  const before = { ice: asText(await rows('ice')), ice2: asText(await rows('ice2')), pq: asText(await rows('pq')) };
  const res = await convert({
    confirm_destructive: true,
    targets: [
      { fqn: fqn('ice'), source_format: 'ICEBERG', target_format: 'DELTA' },
      { fqn: fqn('ice2'), source_format: 'ICEBERG', target_format: 'PARQUET' },
      { fqn: fqn('pq'), source_format: 'PARQUET', target_format: 'ICEBERG' },
    ],
  });
  expect(res.body.results.map((r: { strategy_used: string; status: string }) => [r.strategy_used, r.status])).toEqual([
    ['convert_to_delta', 'converted'],
    ['ctas_parquet', 'converted'],
    ['ctas_iceberg', 'converted'],
  ]);
  expect(before.ice).toHaveLength(2);
  expect(asText(await rows('ice'))).toEqual(before.ice);
  expect(asText(deltaRs((await ws.describeTable(ref('ice'))).location!).rows)).toEqual(before.ice);
  expect((await ws.describeTable(ref('ice2'))).format).toBe('PARQUET');
  expect(asText(await rows('ice2'))).toEqual(before.ice2);
  const pq = await ws.describeTable(ref('pq'));
  expect(pq.format).toBe('ICEBERG');
  expect(asText(await rows('pq'))).toEqual(before.pq);
  expect(asText(pyiceberg(pq.location!).rows)).toEqual(before.pq);
  // keep_backup (default true): the sources are kept aside under <name>_pre_convert_<utc>.
  const backups = (await ws.listTables(C, 's')).map((t) => t.name).filter((n) => n.includes('_pre_convert_'));
  expect(backups.sort()).toEqual(
    [res.body.results[1].backup_fqn, res.body.results[2].backup_fqn].map((f) => f.split('.')[2]).sort(),
  );
});

test('DELTA → PARQUET keeps a backup and replays grants and owner; DELTA → ICEBERG physical without backup', async () => {
  await deltaTable('orders');
  await deltaTable('facts');
  await ws.grant({ type: 'TABLE', ...ref('orders') }, 'analysts', ['SELECT']);
  await ws.grant({ type: 'TABLE', ...ref('orders') }, 'etl', ['MODIFY', 'SELECT']);
  await ws.setOwner({ type: 'TABLE', ...ref('orders') }, 'data_owner');
  const before = asText(await rows('orders'));
  const res = await convert({
    confirm_destructive: true,
    targets: [{ fqn: fqn('orders'), source_format: 'DELTA', target_format: 'PARQUET' }],
  });
  const r = res.body.results[0];
  expect(r).toMatchObject({ status: 'converted', strategy_used: 'ctas_parquet', warnings: [] });
  expect(r.backup_fqn).toMatch(/^conv\.s\.orders_pre_convert_\d{14}$/);
  expect((await ws.describeTable(ref('orders'))).format).toBe('PARQUET');
  expect(asText(await rows('orders'))).toEqual(before);
  expect(asText(await rows(r.backup_fqn.split('.')[2]))).toEqual(before);
  const grants = await ws.getGrants({ type: 'TABLE', ...ref('orders') });
  expect(grants).toEqual(
    expect.arrayContaining([
      { principal: 'analysts', privileges: ['SELECT'] },
      { principal: 'etl', privileges: ['MODIFY', 'SELECT'] },
    ]),
  );
  expect(await ws.getOwner({ type: 'TABLE', ...ref('orders') })).toBe('data_owner');

  const factsBefore = asText(await rows('facts'));
  const ice = await convert({
    confirm_destructive: true,
    iceberg_physical: true,
    keep_backup: false,
    targets: [{ fqn: fqn('facts'), source_format: 'DELTA', target_format: 'ICEBERG' }],
  });
  expect(ice.body.results[0]).toMatchObject({ status: 'converted', strategy_used: 'ctas_iceberg', backup_fqn: null });
  expect(ice.body.results[0].steps.map((s: { label: string }) => s.label)).toEqual([
    'create temp table',
    'drop source',
    'rename temp to original',
  ]);
  expect((await ws.listTables(C, 's')).map((t) => t.name).filter((n) => n.startsWith('facts'))).toEqual(['facts']);
  const facts = await ws.describeTable(ref('facts'));
  expect(facts.format).toBe('ICEBERG');
  expect(asText(pyiceberg(facts.location!).rows)).toEqual(factsBefore);
});

test('a failing step fails the target with the step label; the source is untouched; audit rows name the strategy', async () => {
  await deltaTable('clash');
  await ws.createTable({ ref: ref('clash_convert_tmp'), columns: [{ name: 'x', type: 'int' }] });
  const res = await convert({
    confirm_destructive: true,
    targets: [{ fqn: fqn('clash'), source_format: 'DELTA', target_format: 'PARQUET' }],
  });
  expect(res.status).toBe(200);
  const r = res.body.results[0];
  expect(r.status).toBe('failed');
  expect(r.error).toMatch(/^step 'create temp table' failed: /);
  expect(r.steps.map((s: { status: string }) => s.status)).toEqual(['failed', 'skipped', 'skipped']);
  expect((await ws.describeTable(ref('clash'))).format).toBe('DELTA');
  expect(res.body).toMatchObject({ total: 1, failed: 1 });
  const audit = (await recentAudit(store.db, 50)).filter((a) => a.action === 'convert_table');
  expect(audit.find((a) => (a.details as { fqn: string }).fqn === fqn('clash'))).toMatchObject({
    status: 'failed',
    details: expect.objectContaining({ strategy_used: 'ctas_parquet' }),
  });
  expect(audit.some((a) => (a.details as { strategy_used: string }).strategy_used === 'convert_to_delta')).toBe(true);
});

test('preflight: Iceberg hidden partitioning and Delta generated columns are refused with no SQL; a failing description proceeds', async () => {
  const ext = path.join(root, 'external');
  const bucketed = path.join(ext, 'bucketed');
  const generated = path.join(ext, 'generated');
  execFileSync(
    PYTHON,
    [
      '-c',
      `
import sys, pyarrow as pa
from pyiceberg.catalog.sql import SqlCatalog
from pyiceberg.schema import Schema
from pyiceberg.types import NestedField, LongType, StringType
from pyiceberg.partitioning import PartitionSpec, PartitionField
from pyiceberg.transforms import BucketTransform
cat = SqlCatalog("t", uri="sqlite:///${ext}/cat.db", warehouse="file://${ext}/wh")
cat.create_namespace("ns")
schema = Schema(NestedField(1, "id", LongType(), required=False), NestedField(2, "name", StringType(), required=False))
spec = PartitionSpec(PartitionField(source_id=1, field_id=1000, transform=BucketTransform(4), name="id_bucket"))
cat.create_table("ns.b", schema=schema, partition_spec=spec, location="file://${bucketed}")
from deltalake import DeltaTable
from deltalake.schema import Schema as DSchema, Field, PrimitiveType
DeltaTable.create("${generated}", schema=DSchema([Field("id", PrimitiveType("long"), True), Field("twice", PrimitiveType("long"), True, metadata={"delta.generationExpression": "id * 2"})]))
`,
    ],
    { encoding: 'utf8' },
  );
  await ws.createTable({
    ref: ref('bucketed'),
    format: 'ICEBERG',
    location: bucketed,
    columns: [{ name: 'id', type: 'bigint' }],
  });
  await ws.createTable({ ref: ref('generated'), location: generated, columns: [{ name: 'id', type: 'bigint' }] });
  const res = await convert({
    confirm_destructive: true,
    iceberg_physical: true,
    targets: [
      { fqn: fqn('bucketed'), source_format: 'ICEBERG', target_format: 'DELTA' },
      { fqn: fqn('generated'), source_format: 'DELTA', target_format: 'ICEBERG' },
      { fqn: fqn('generated'), source_format: 'DELTA', target_format: 'PARQUET' },
    ],
  });
  const [b, g, p] = res.body.results;
  expect(b).toMatchObject({ status: 'skipped', strategy_used: 'convert_to_delta' });
  expect(b.error).toMatch(/^compat preflight refused: Iceberg hidden partitioning \(bucket\[4\]\)/);
  expect(g.error).toMatch(/^compat preflight refused: generated or identity columns \(twice\)/);
  expect(p.status).toBe('skipped');
  for (const r of [b, g, p]) for (const s of r.steps) expect(s.status).toBe('skipped');
  expect((await ws.describeTable(ref('bucketed'))).format).toBe('ICEBERG');
  expect(existsSync(path.join(generated, '_delta_log'))).toBe(true);

  // A workspace whose description query fails: preflight passes and the conversion runs.
  const blind = new Proxy(ws, {
    get(target, prop, receiver) {
      if (prop === 'conversionFacts') return async () => Promise.reject(new Error('DESCRIBE failed'));
      const v = Reflect.get(target, prop, receiver);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
  const blindApp = createApp(testAppDeps({ store, open: async () => blind }));
  const ok = await convert(
    {
      confirm_destructive: true,
      iceberg_physical: true,
      targets: [{ fqn: fqn('generated'), source_format: 'DELTA', target_format: 'PARQUET' }],
    },
    200,
    blindApp,
  );
  expect(ok.body.results[0]).toMatchObject({ status: 'converted', strategy_used: 'ctas_parquet' });
});
