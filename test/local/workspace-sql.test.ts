import { InvalidInputError, NotFoundError } from '../../platform/errors';
import { LocalWorkspace } from '../../platform/local/workspace';
import { peopleTable, ref, tempRoots, workspaceWithSchema } from './helpers';

const roots = tempRoots();
let root: string;
let ws: LocalWorkspace;
beforeAll(async () => {
  root = roots.make();
  ws = await workspaceWithSchema(root);
  await peopleTable(ws, 'people');
  await ws.createFunction({
    ref: ref('mask_ssn'),
    parameters: 'ssn STRING',
    returnType: 'STRING',
    body: "CASE WHEN is_account_group_member('hr') THEN ssn ELSE concat('***-**-', right(ssn, 4)) END",
  });
  await ws.createFunction({
    ref: ref('not_apac'),
    parameters: 'region STRING',
    returnType: 'BOOLEAN',
    body: "region <> 'APAC'",
  });
});
afterAll(() => roots.cleanup());

describe('local workspace SQL', () => {
  it('applies column masks and row filters on reads, except to members the function lets through', async () => {
    const t = await peopleTable(ws, 'governed');
    await ws.setColumnMask(t, { column: 'ssn', functionName: 'main.sales.mask_ssn', usingColumns: [] });
    await ws.setRowFilter(t, { functionName: 'main.sales.not_apac', columns: ['region'] });
    expect((await ws.query('SELECT id, ssn FROM main.sales.governed ORDER BY id')).rows).toEqual([
      { id: 1, ssn: '***-**-3333' },
      { id: 3, ssn: null },
    ]);
    const hr = new LocalWorkspace({ root, user: 'bob', groups: ['hr'] });
    expect((await hr.query('SELECT ssn FROM main.sales.governed WHERE id = 1')).rows).toEqual([{ ssn: '111-22-3333' }]);
    expect(await ws.getColumnMasks(t)).toEqual([
      { column: 'ssn', functionName: 'main.sales.mask_ssn', usingColumns: [] },
    ]);
    expect(await ws.getRowFilter(t)).toEqual({ functionName: 'main.sales.not_apac', columns: ['region'] });
    // Stats describe stored data, not what a reader may see.
    expect((await ws.tableStats(t)).rowCount).toBe(3);
    await ws.dropRowFilter(t);
    await ws.dropColumnMask(t, 'ssn');
    expect((await ws.query('SELECT count(*) AS n FROM main.sales.governed')).rows).toEqual([{ n: 3 }]);
  });

  it('answers many concurrent queries that need the same function macros', async () => {
    const t = await peopleTable(ws, 'busy');
    await ws.setColumnMask(t, { column: 'ssn', functionName: 'main.sales.mask_ssn', usingColumns: [] });
    const results = await Promise.all(
      Array.from({ length: 12 }, () => ws.query('SELECT ssn FROM main.sales.busy WHERE id = 2')),
    );
    expect(results.map((r) => r.rows)).toEqual(Array.from({ length: 12 }, () => [{ ssn: '***-**-6666' }]));
  });

  it('calls SQL functions by three-part name and translates Databricks built-ins', async () => {
    const r = await ws.query(
      "SELECT main.sales.mask_ssn('123-45-6789') AS m, current_user() AS u, sha2('abc', 256) = sha256('abc') AS same, nvl(NULL, 'x') AS n",
    );
    expect(r.rows).toEqual([{ m: '***-**-6789', u: 'alice', same: true, n: 'x' }]);
    expect(r.columns).toEqual([
      { name: 'm', type: 'string' },
      { name: 'u', type: 'string' },
      { name: 'same', type: 'boolean' },
      { name: 'n', type: 'string' },
    ]);
  });

  it('resolves a view over a view, including time travel inside a view', async () => {
    const t = await peopleTable(ws, 'vt');
    await ws.deleteWhere(t, 'id = 1');
    await ws.createView({ ref: ref('v_old'), definition: 'SELECT id, name FROM main.sales.vt VERSION AS OF 1' });
    await ws.createView({ ref: ref('v_top'), definition: 'SELECT v.id FROM main.sales.v_old v WHERE v.id < 3' });
    expect((await ws.query('SELECT id FROM main.sales.v_top ORDER BY id')).rows).toEqual([{ id: 1 }, { id: 2 }]);
    expect((await ws.query('SELECT count(*) AS n FROM main.sales.vt')).rows).toEqual([{ n: 2 }]);
    expect((await ws.listViews('main', 'sales')).map((v) => v.name)).toEqual(['v_old', 'v_top']);
    const viewColumns = await ws.query(
      "SELECT column_name, full_data_type FROM main.information_schema.columns WHERE table_name = 'v_old' ORDER BY ordinal_position",
    );
    expect(viewColumns.rows).toEqual([
      { column_name: 'id', full_data_type: 'bigint' },
      { column_name: 'name', full_data_type: 'string' },
    ]);
    const d = await ws.describeTable(ref('v_top'));
    expect([d.tableType, d.columns.map((c) => [c.name, c.type])]).toEqual(['VIEW', [['id', 'bigint']]]);
    await expect(ws.createView({ ref: ref('v_bad'), definition: 'SELECT * FROM main.sales.nothing' })).rejects.toThrow(
      /not found/,
    );
  });

  it('serves information_schema views from the metastore', async () => {
    const t = await peopleTable(ws, 'info');
    await ws.setTags({ type: 'TABLE', ...t }, { tier: 'gold' });
    await ws.setColumnTags(t, 'ssn', { pii: 'ssn' });
    await ws.grant({ type: 'TABLE', ...t }, 'analysts', ['SELECT']);
    await ws.addCheckConstraint(t, { name: 'id_positive', expression: 'id > 0' });
    const q = async (sql: string) => (await ws.query(sql)).rows;
    expect(
      await q("SELECT table_type, data_source_format FROM main.information_schema.tables WHERE table_name = 'info'"),
    ).toEqual([{ table_type: 'MANAGED', data_source_format: 'DELTA' }]);
    expect(
      await q(
        "SELECT column_name, ordinal_position, is_nullable, full_data_type FROM main.information_schema.columns WHERE table_name = 'info' AND column_name IN ('id', 'score') ORDER BY 2",
      ),
    ).toEqual([
      { column_name: 'id', ordinal_position: 1, is_nullable: 'NO', full_data_type: 'bigint' },
      { column_name: 'score', ordinal_position: 5, is_nullable: 'YES', full_data_type: 'decimal(10,2)' },
    ]);
    expect(
      await q("SELECT tag_name, tag_value FROM main.information_schema.table_tags WHERE table_name = 'info'"),
    ).toEqual([{ tag_name: 'tier', tag_value: 'gold' }]);
    expect(
      await q("SELECT column_name, tag_value FROM main.information_schema.column_tags WHERE table_name = 'info'"),
    ).toEqual([{ column_name: 'ssn', tag_value: 'ssn' }]);
    expect(
      await q("SELECT grantee, privilege_type FROM main.information_schema.table_privileges WHERE table_name = 'info'"),
    ).toEqual([{ grantee: 'analysts', privilege_type: 'SELECT' }]);
    expect(
      await q(
        "SELECT constraint_name, constraint_type FROM main.information_schema.table_constraints WHERE table_name = 'info'",
      ),
    ).toEqual([{ constraint_name: 'id_positive', constraint_type: 'CHECK' }]);
    expect(await q('SELECT routine_name FROM system.information_schema.routines ORDER BY 1')).toEqual([
      { routine_name: 'mask_ssn' },
      { routine_name: 'not_apac' },
    ]);
    expect(await q('SELECT count(*) AS n FROM main.information_schema.volumes')).toEqual([{ n: 0 }]);
  });

  it('rejects writes and unknown names with typed errors', async () => {
    await expect(ws.query('DROP TABLE main.sales.people')).rejects.toThrow(InvalidInputError);
    await expect(ws.query('INSERT INTO x SELECT 1')).rejects.toThrow(/read-only/);
    await expect(ws.query('SELECT * FROM main.sales.missing')).rejects.toThrow(
      new NotFoundError('table or view main.sales.missing not found'),
    );
    await expect(ws.query('SELECT * FROM elsewhere.sales.people')).rejects.toThrow(
      new NotFoundError('catalog elsewhere not found'),
    );
    await expect(ws.query('SELECT * FROM main.information_schema.nonsense')).rejects.toThrow(/not available/);
    await expect(ws.query('SELECT nope FROM main.sales.people')).rejects.toThrow(InvalidInputError);
  });

  it('leaves strings, struct fields and two-part names alone', async () => {
    const r = await ws.query("SELECT 'main.sales.people' AS s, x.a.b AS f FROM (SELECT {'b': 1} AS a) AS x");
    expect(r.rows).toEqual([{ s: 'main.sales.people', f: 1 }]);
  });
});

describe('several workspace roots in one process', () => {
  it('keeps same-named functions and tables of each root apart', async () => {
    const other = await workspaceWithSchema(roots.make());
    await other.createFunction({
      ref: ref('mask_ssn'),
      parameters: 'ssn STRING',
      returnType: 'STRING',
      body: "'hidden'",
    });
    await other.createTable({ ref: ref('people'), columns: [{ name: 'id', type: 'bigint' }] });
    const [mine, theirs] = await Promise.all([
      ws.query("SELECT main.sales.mask_ssn('123-45-6789') AS m, (SELECT count(*) FROM main.sales.people) AS n"),
      other.query("SELECT main.sales.mask_ssn('123-45-6789') AS m, (SELECT count(*) FROM main.sales.people) AS n"),
    ]);
    expect(mine.rows).toEqual([{ m: '***-**-6789', n: 3 }]);
    expect(theirs.rows).toEqual([{ m: 'hidden', n: 0 }]);
  });
});
