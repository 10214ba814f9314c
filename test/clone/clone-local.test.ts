import type { Workspace } from '../../platform/port';
import { seedMiniCatalog } from './fixtures/mini-catalog';
import { createHarness, type Harness } from '../helpers/harness';

let h: Harness;
beforeAll(async () => {
  h = await createHarness('clone-local');
}, 60_000);
afterAll(async () => h?.teardown());

async function sameRows(ws: Workspace, schema: string, table: string, dest = 'dev') {
  const a = await ws.tableChecksum({ catalog: 'prod', schema, name: table });
  const b = await ws.tableChecksum({ catalog: dest, schema, name: table });
  expect(b).toBe(a);
}

describe.each(['DEEP', 'SHALLOW'] as const)('%s clone of a local catalog', (cloneType) => {
  test('tables, metadata, functions, masks, views (view over view) and volumes arrive', async () => {
    const root = h.newRoot();
    const ws = await h.open(root);
    await seedMiniCatalog(ws);
    const input = h.jobInput(root, { clone_type: cloneType });
    const summary = await h.withWorker(() => h.run(input));

    expect(summary).toMatchObject({
      status: 'completed',
      tables_cloned: 2,
      tables_failed: 0,
      views_cloned: 3,
      functions_cloned: 1,
      volumes_cloned: 1,
      formats: { DELTA: 2 },
    });
    await sameRows(ws, 'sales', 'orders');
    await sameRows(ws, 'hr', 'employees');
    // Shallow clones copy no table files; the volume's 14-byte file is copied either way.
    if (cloneType === 'DEEP') expect(summary.bytes_copied).toBeGreaterThan(14);
    else expect(summary.bytes_copied).toBe(14);

    const orders = { catalog: 'dev', schema: 'sales', name: 'orders' };
    expect(await ws.getProperties(orders)).toEqual({ quality: 'gold' });
    expect(await ws.getComment({ type: 'TABLE', ...orders })).toBe('all orders');
    expect(await ws.getColumnComments(orders)).toMatchObject({ region: 'sales region' });
    expect(await ws.listConstraints(orders)).toEqual([{ name: 'positive_amount', expression: 'amount >= 0' }]);
    expect(await ws.getTags({ type: 'TABLE', ...orders })).toEqual({ pii: 'false' });
    expect(await ws.getOwner({ type: 'TABLE', ...orders })).toBe('sales_admins');
    expect(await ws.getGrants({ type: 'TABLE', ...orders })).toEqual(
      expect.arrayContaining([{ principal: 'analysts', privileges: ['SELECT'] }]),
    );
    expect(await ws.getTags({ type: 'SCHEMA', catalog: 'dev', schema: 'sales' })).toEqual({ domain: 'sales' });

    expect(await ws.getColumnMasks({ catalog: 'dev', schema: 'hr', name: 'employees' })).toEqual([
      { column: 'ssn', functionName: 'dev.hr.mask_ssn', usingColumns: [] },
    ]);
    expect((await ws.query('SELECT ssn FROM dev.hr.employees')).rows).toEqual([{ ssn: '***' }, { ssn: '***' }]);
    const views = await ws.listViews('dev', 'sales');
    expect(views.find((v) => v.name === 'big_eu_orders')?.definition).toBe(
      'SELECT id FROM dev.sales.eu_orders WHERE amount > 50',
    );
    expect((await ws.query('SELECT count(*) AS n FROM dev.sales.big_eu_orders')).rows[0].n).toBeGreaterThan(0);
    expect(await ws.readVolumeFile({ catalog: 'dev', schema: 'sales', name: 'landing' }, 'in/2026-01.csv')).toEqual(
      Buffer.from('id,amount\n1,2\n'),
    );

    const events = await h.events(input.jobId);
    const finished = events.filter((e) => e.event === 'table_finished');
    expect(finished).toHaveLength(2);
    expect(finished[0]).toMatchObject({ status: 'cloned', format: 'DELTA' });
    expect(events.some((e) => e.event === 'schema_finished')).toBe(true);
    expect(events.at(-1)).toMatchObject({ event: 'completed', status: 'completed' });
  });
});

test('false copy_* flags leave that metadata off the destination', async () => {
  const root = h.newRoot();
  const ws = await h.open(root);
  await seedMiniCatalog(ws);
  const flags = {
    copy_permissions: false,
    copy_ownership: false,
    copy_tags: false,
    copy_properties: false,
    copy_constraints: false,
    copy_comments: false,
    copy_security: false,
  };
  const summary = await h.withWorker(() =>
    h.run(h.jobInput(root, { ...flags, clone_tbl_properties: { cloned_by: 'lakeward' } })),
  );
  expect(summary.status).toBe('completed');
  const orders = { catalog: 'dev', schema: 'sales', name: 'orders' };
  expect(await ws.getProperties(orders)).toEqual({ cloned_by: 'lakeward' });
  expect(await ws.getComment({ type: 'TABLE', ...orders })).toBeNull();
  expect(await ws.getColumnComments(orders)).toEqual({});
  expect(await ws.listConstraints(orders)).toEqual([]);
  expect(await ws.getTags({ type: 'TABLE', ...orders })).toEqual({});
  expect(await ws.getOwner({ type: 'TABLE', ...orders })).not.toBe('sales_admins');
  expect((await ws.getGrants({ type: 'TABLE', ...orders })).some((g) => g.principal === 'analysts')).toBe(false);
  expect(await ws.getColumnMasks({ catalog: 'dev', schema: 'hr', name: 'employees' })).toEqual([]);
});
