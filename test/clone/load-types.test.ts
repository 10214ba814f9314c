import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { listJobTables } from '../../store/clone/clone-state';
import { seedMiniCatalog } from './fixtures/mini-catalog';
import { createHarness, type Harness } from '../helpers/harness';

let h: Harness;
beforeAll(async () => {
  h = await createHarness('clone-load');
}, 60_000);
afterAll(async () => h?.teardown());

function tree(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? tree(p) : [`${p}:${statSync(p).size}:${statSync(p).mtimeMs}`];
  });
}

const clonedTables = (events: Record<string, unknown>[]) =>
  events
    .filter((e) => e.event === 'table_finished' && e.status === 'cloned')
    .map((e) => `${e.schema}.${e.table}`)
    .sort();

test('SELECTIVE re-clones exactly the tables whose source changed since the last clone', async () => {
  const root = h.newRoot();
  const ws = await h.open(root);
  await seedMiniCatalog(ws, 'prod', { extraTables: 4 });
  await h.withWorker(async () => {
    expect(await h.run(h.jobInput(root, {}))).toMatchObject({ status: 'completed', tables_cloned: 6 });
    // A destination-only change must not trigger a re-clone: only source versions are compared.
    await ws.insertRows({ catalog: 'dev', schema: 'sales', name: 't001' }, [{ k: 99, v: 'dest only' }]);
    await ws.insertRows({ catalog: 'prod', schema: 'sales', name: 'orders' }, [
      { id: 1000, region: 'EU', amount: '1.00' },
    ]);
    await ws.deleteWhere({ catalog: 'prod', schema: 'sales', name: 't002' }, 'k = 0');

    const input = h.jobInput(root, { load_type: 'SELECTIVE' });
    const summary = await h.run(input);
    expect(summary).toMatchObject({ status: 'completed', mode: 'selective', tables_cloned: 2, tables_skipped: 4 });
    expect(clonedTables(await h.events(input.jobId))).toEqual(['sales.orders', 'sales.t002']);
    for (const name of ['orders', 't002']) {
      expect(await ws.tableChecksum({ catalog: 'dev', schema: 'sales', name })).toBe(
        await ws.tableChecksum({ catalog: 'prod', schema: 'sales', name }),
      );
    }
    const again = await h.run(h.jobInput(root, { load_type: 'SELECTIVE' }));
    expect(again).toMatchObject({ tables_cloned: 0, tables_skipped: 6 });
  });
});

test('INCREMENTAL clones only tables missing from the destination', async () => {
  const root = h.newRoot();
  const ws = await h.open(root);
  await seedMiniCatalog(ws, 'prod', { extraTables: 2 });
  await h.withWorker(async () => {
    await h.run(h.jobInput(root, {}));
    await ws.dropTable({ catalog: 'dev', schema: 'sales', name: 't000' });
    const input = h.jobInput(root, { load_type: 'INCREMENTAL' });
    expect(await h.run(input)).toMatchObject({
      status: 'completed',
      mode: 'incremental',
      tables_cloned: 1,
      tables_skipped: 3,
    });
    expect(clonedTables(await h.events(input.jobId))).toEqual(['sales.t000']);
  });
});

test('a dry run returns the ordered plan and changes nothing', async () => {
  const root = h.newRoot();
  const ws = await h.open(root);
  await seedMiniCatalog(ws);
  const before = tree(root);
  const input = h.jobInput(root, { dry_run: true, clone_tbl_properties: { env: 'dev' } });
  const summary = await h.withWorker(() => h.run(input));
  expect(tree(root)).toEqual(before);
  expect(await listJobTables(h.store.db, input.jobId)).toEqual([]);
  expect(summary.mode).toBe('dry_run');
  const plan = summary.plan!;
  expect(plan[0]).toBe('CREATE CATALOG IF NOT EXISTS `dev`');
  const version = (await ws.describeTable({ catalog: 'prod', schema: 'sales', name: 'orders' })).version;
  expect(plan).toContain(
    `CREATE OR REPLACE TABLE \`dev\`.\`sales\`.\`orders\` DEEP CLONE \`prod\`.\`sales\`.\`orders\` VERSION AS OF ${version} TBLPROPERTIES ('env' = 'dev')`,
  );
  expect(plan).toContain('ALTER TABLE `dev`.`hr`.`employees` ALTER COLUMN `ssn` SET MASK dev.hr.mask_ssn');
  const at = (prefix: string) => plan.findIndex((l) => l.startsWith(prefix));
  expect(at('CREATE OR REPLACE FUNCTION `dev`.`hr`.`mask_ssn`')).toBeLessThan(
    at('CREATE OR REPLACE TABLE `dev`.`hr`.`employees`'),
  );
  expect(
    at('CREATE OR REPLACE VIEW `dev`.`sales`.`eu_orders` AS SELECT id, amount FROM dev.sales.orders'),
  ).toBeLessThan(at('CREATE OR REPLACE VIEW `dev`.`sales`.`big_eu_orders`'));
  expect(at('CREATE VOLUME IF NOT EXISTS `dev`.`sales`.`landing`')).toBeGreaterThan(0);
  expect((await ws.listCatalogs()).map((c) => c.name)).toEqual(['prod']);
});
