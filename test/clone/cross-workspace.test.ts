import { PermissionDeniedError } from '../../platform/errors';
import { faultyWorkspace } from './fixtures/faulty-workspace';
import { seedMiniCatalog } from './fixtures/mini-catalog';
import { createHarness, type Harness } from '../helpers/harness';

let h: Harness;
beforeAll(async () => {
  h = await createHarness('clone-cross');
}, 60_000);
afterAll(async () => h?.teardown());

const orders = { catalog: 'prod', schema: 'sales', name: 'orders' };

test('a cross-workspace clone copies the data and honours clone_views / volume_max_file_mb', async () => {
  const src = h.newRoot();
  const dst = h.newRoot();
  const a = await h.open(src);
  await seedMiniCatalog(a);
  await a.writeVolumeFile(
    { catalog: 'prod', schema: 'sales', name: 'landing' },
    'big.bin',
    Buffer.alloc(1024 * 1024 + 1),
  );
  const input = h.jobInput(
    src,
    {
      destination_catalog: 'prod',
      clone_type: 'SHALLOW',
      clone_views: false,
      volume_max_file_mb: 1,
      target_workspace: { root: dst },
    },
    {
      targets: [{ label: 'dr-site', workspace: { kind: 'local', root: dst }, destinationCatalog: 'prod' }],
    },
  );
  const summary = await h.withWorker(() => h.run(input));
  expect(summary).toMatchObject({
    status: 'completed',
    tables_cloned: 2,
    views_cloned: 0,
    functions_cloned: 1,
    volumes_cloned: 1,
  });
  const b = await h.open(dst);
  expect(await b.tableChecksum(orders)).toBe(await a.tableChecksum(orders));
  // The target holds its own files: it reads the same rows after the source table is dropped.
  const before = await b.tableChecksum(orders);
  await a.dropTable(orders);
  expect(await b.tableChecksum(orders)).toBe(before);
  expect(await b.listViews('prod', 'sales')).toEqual([]);
  expect((await b.query('SELECT ssn FROM prod.hr.employees')).rows).toEqual([{ ssn: '***' }, { ssn: '***' }]);
  expect((await b.listVolumeFiles({ catalog: 'prod', schema: 'sales', name: 'landing' })).map((f) => f.path)).toEqual([
    'in/2026-01.csv',
  ]);
  expect(summary.warnings).toEqual(
    expect.arrayContaining([
      expect.stringMatching(/big\.bin skipped/),
      expect.stringMatching(/SHALLOW across workspaces copies the data/),
    ]),
  );
});

test('fan-out to three targets reports each; one failing target makes the run partial', async () => {
  const src = h.newRoot();
  await seedMiniCatalog(await h.open(src));
  const [b, c, d] = [h.newRoot(), h.newRoot(), h.newRoot()];
  const target = (label: string, root: string) => ({
    label,
    workspace: { kind: 'local' as const, root },
    destinationCatalog: 'copy',
  });
  const input = h.jobInput(
    src,
    { destination_catalog: 'copy' },
    { targets: [target('b', b), target('c', c), target('locked', d)] },
  );
  const summary = await h.withWorker(() => h.run(input), {
    wrap: (ws, ref) =>
      ref.kind === 'local' && ref.root === d
        ? faultyWorkspace(ws, (m) =>
            m === 'createCatalog' ? new PermissionDeniedError('no CREATE CATALOG on metastore') : undefined,
          )
        : ws,
  });
  expect(summary).toMatchObject({
    mode: 'fanout',
    target_count: 3,
    succeeded_targets: 2,
    failed_targets: 1,
    target_status: 'partial',
    tables_cloned: 4,
  });
  expect(summary.per_target!.b).toMatchObject({ status: 'completed', tables_cloned: 2 });
  expect(summary.per_target!.locked).toMatchObject({
    status: 'failed',
    error: 'prepareTarget: PermissionDenied: no CREATE CATALOG on metastore',
  });
  for (const root of [b, c]) {
    expect(await (await h.open(root)).tableChecksum({ catalog: 'copy', schema: 'sales', name: 'orders' })).toBe(
      await (await h.open(src)).tableChecksum(orders),
    );
  }
});
