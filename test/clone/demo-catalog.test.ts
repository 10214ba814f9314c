import { seedDemo } from '../../platform/local/demo/seed';
import type { Workspace } from '../../platform/port';
import type { TableRef } from '../../platform/types';
import { isSystemProperty } from '../../activities/clone/metadata-copy';
import { createHarness, type Harness } from '../helpers/harness';

let h: Harness;
let root: string;
let ws: Workspace;
let sourceTables: TableRef[];
beforeAll(async () => {
  h = await createHarness('clone-demo');
  root = h.newRoot();
  await seedDemo({ root, catalog: 'demo_sales', scale: 'small' });
  ws = await h.open(root);
  sourceTables = [];
  for (const s of await ws.listSchemas('demo_sales')) {
    for (const t of await ws.listTables('demo_sales', s.name))
      sourceTables.push({ catalog: 'demo_sales', schema: s.name, name: t.name });
  }
}, 180_000);
afterAll(async () => h?.teardown());

const ALL_FLAGS = [
  'copy_permissions',
  'copy_ownership',
  'copy_tags',
  'copy_properties',
  'copy_constraints',
  'copy_comments',
  'copy_security',
] as const;

/** Every metadata kind of one table, in the shape the copy_* flags govern. */
async function metadata(ref: TableRef) {
  const sec = { type: 'TABLE' as const, ...ref };
  const desc = await ws.describeTable(ref);
  const fn = (name: string | undefined) => name?.split('.').slice(1).join('.');
  return {
    copy_permissions: [...(await ws.getGrants(sec))].sort((a, b) => a.principal.localeCompare(b.principal)),
    copy_ownership: desc.owner,
    copy_tags: { table: await ws.getTags(sec), columns: await ws.getColumnTags(ref) },
    copy_properties: Object.fromEntries(
      Object.entries(await ws.getProperties(ref)).filter(([k]) => !isSystemProperty(k)),
    ),
    copy_constraints: await ws.listConstraints(ref),
    copy_comments: { table: desc.comment, columns: await ws.getColumnComments(ref) },
    copy_security: {
      filter: fn((await ws.getRowFilter(ref))?.functionName),
      masks: (await ws.getColumnMasks(ref)).map((m) => `${m.column}:${fn(m.functionName)}`),
    },
  };
}

describe.each(['DEEP', 'SHALLOW'] as const)('%s clone of the demo catalog', (cloneType) => {
  test('every table has the source rows and all metadata; the view over a view, masks and row filter work', async () => {
    const dest = `demo_${cloneType.toLowerCase()}`;
    const summary = await h.withWorker(() =>
      h.run(
        h.jobInput(root, {
          source_catalog: 'demo_sales',
          destination_catalog: dest,
          clone_type: cloneType,
          parallel_tables: 4,
        }),
      ),
    );
    expect(summary).toMatchObject({
      status: 'completed',
      tables_failed: 0,
      tables_cloned: sourceTables.length,
      views_cloned: 3,
      functions_cloned: 3,
      volumes_cloned: 1,
    });
    for (const ref of sourceTables) {
      const copy = { ...ref, catalog: dest };
      expect([ref.schema, ref.name, await ws.tableChecksum(copy)]).toEqual([
        ref.schema,
        ref.name,
        await ws.tableChecksum(ref),
      ]);
      expect(await metadata(copy)).toEqual(await metadata(ref));
    }
    const top = await ws.query(`SELECT * FROM ${dest}.sales.top_customers`);
    expect(top.rows).toEqual((await ws.query('SELECT * FROM demo_sales.sales.top_customers')).rows);
    const ssn = await ws.query(`SELECT ssn FROM ${dest}.sales.customers LIMIT 3`);
    expect(ssn.rows.every((r) => String(r.ssn).startsWith('***-**-'))).toBe(true);
    expect((await ws.getRowFilter({ catalog: dest, schema: 'crm', name: 'accounts' }))?.functionName).toBe(
      `${dest}.crm.region_filter`,
    );
  }, 240_000);
});

test('with every copy_* flag false, none of those metadata kinds reach the destination', async () => {
  const flags = Object.fromEntries(ALL_FLAGS.map((f) => [f, false]));
  const summary = await h.withWorker(() =>
    h.run(
      h.jobInput(root, {
        source_catalog: 'demo_sales',
        destination_catalog: 'demo_bare',
        parallel_tables: 4,
        ...flags,
      }),
    ),
  );
  expect(summary).toMatchObject({ status: 'completed', tables_failed: 0 });
  for (const ref of sourceTables) {
    const m = await metadata({ ...ref, catalog: 'demo_bare' });
    expect(m.copy_permissions).toEqual([]);
    expect(m.copy_tags.table).toEqual({});
    expect(m.copy_properties).toEqual({});
    expect(m.copy_constraints).toEqual([]);
    expect(m.copy_comments).toEqual({ table: null, columns: {} });
    expect(m.copy_security).toEqual({ filter: undefined, masks: [] });
    const srcOwner = (await ws.describeTable(ref)).owner;
    if (srcOwner !== 'data_platform') expect(m.copy_ownership).not.toBe(srcOwner);
  }
}, 240_000);
