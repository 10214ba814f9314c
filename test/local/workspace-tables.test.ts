import { InvalidInputError } from '../../platform/errors';
import type { LocalWorkspace } from '../../platform/local/workspace';
import { peopleTable, ref, tempRoots, workspaceWithSchema } from './helpers';

const roots = tempRoots();
let ws: LocalWorkspace;
beforeAll(async () => {
  ws = await workspaceWithSchema(roots.make());
});
afterAll(() => roots.cleanup());

const ids = async (sql: string) => (await ws.query(sql)).rows.map((r) => r.id);

describe('local workspace tables', () => {
  it('describes a table with Databricks types, nullability, comments, format and version', async () => {
    const r = await peopleTable(ws, 'described', { team: 'core' });
    const d = await ws.describeTable(r);
    expect(d).toMatchObject({
      tableType: 'MANAGED',
      format: 'DELTA',
      owner: 'alice',
      comment: 'People',
      version: 1,
      numFiles: 1,
      properties: { team: 'core' },
    });
    expect(d.columns.map((c) => [c.name, c.type, c.nullable, c.comment])).toEqual([
      ['id', 'bigint', false, 'key'],
      ['name', 'string', true, null],
      ['ssn', 'string', true, null],
      ['region', 'string', true, null],
      ['score', 'decimal(10,2)', true, null],
    ]);
    expect(d.sizeBytes).toBeGreaterThan(0);
    expect((await ws.listTables('main', 'sales')).map((t) => t.name)).toContain('described');
    expect(await ws.tableExists(r)).toBe(true);
    expect(await ws.tableExists(ref('nothing'))).toBe(false);
  });

  it('writes new versions and reads old ones with VERSION AS OF, TIMESTAMP AS OF and @v', async () => {
    const r = await peopleTable(ws, 'travel');
    await ws.updateWhere(r, { name: 'upper(name)' }, 'id = 1');
    await ws.deleteWhere(r, "region = 'APAC'");
    expect((await ws.query('SELECT name FROM main.sales.travel WHERE id = 1')).rows).toEqual([{ name: 'ANN' }]);
    expect(await ids('SELECT id FROM main.sales.travel VERSION AS OF 1 ORDER BY id')).toEqual([1, 2, 3]);
    expect(await ids('SELECT id FROM `main`.`sales`.`travel@v1` ORDER BY id')).toEqual([1, 2, 3]);
    expect(await ids('SELECT t.id FROM main.sales.travel@v2 t ORDER BY t.id')).toEqual([1, 2, 3]);
    const history = await ws.tableHistory(r);
    expect(history.map((h) => h.operation)).toEqual(['DELETE', 'UPDATE', 'WRITE', 'CREATE TABLE']);
    const v1 = history.find((h) => h.version === 1)!;
    expect(await ids(`SELECT id FROM main.sales.travel TIMESTAMP AS OF '${v1.timestamp}' ORDER BY id`)).toEqual([
      1, 2, 3,
    ]);
    expect((await ws.tableHistory(r, 1)).length).toBe(1);
  });

  it('computes stats and an order-independent, null-safe checksum', async () => {
    const a = await peopleTable(ws, 'sum_a');
    const b = ref('sum_b');
    await ws.createTableAs({ ref: b, query: 'SELECT * FROM main.sales.sum_a ORDER BY id DESC' });
    expect(await ws.tableStats(a)).toEqual({
      rowCount: 3,
      nullCounts: { id: 0, name: 1, ssn: 1, region: 0, score: 1 },
    });
    expect(await ws.tableChecksum(b)).toBe(await ws.tableChecksum(a));
    await ws.updateWhere(b, { name: "'Ann'" }, 'id = 3');
    expect(await ws.tableChecksum(b)).not.toBe(await ws.tableChecksum(a));
    expect(await ws.tableChecksum(b, { version: 0 })).toBe(await ws.tableChecksum(a));
  });

  it('inserts and overwrites from queries, matching columns by position', async () => {
    const r = await peopleTable(ws, 'target');
    expect(await ws.insertQuery(r, 'SELECT id + 10, name, ssn, region, score FROM main.sales.target')).toEqual({
      numOutputRows: 3,
    });
    expect(await ws.overwriteQuery(r, "SELECT 99, 'x', NULL, 'EMEA', 1.25")).toEqual({ numOutputRows: 1 });
    expect((await ws.query('SELECT id, score FROM main.sales.target')).rows).toEqual([{ id: 99, score: 1.25 }]);
    await expect(ws.insertQuery(r, 'SELECT 1')).rejects.toThrow(/1 columns but the table has 5/);
    await expect(ws.insertRows(r, [{ nope: 1 }])).rejects.toThrow(/unknown column "nope"/);
  });

  it('inserts map values with exactly their own keys, nested in structs and arrays too', async () => {
    const r = ref('maps');
    await ws.createTable({
      ref: r,
      columns: [
        { name: 'id', type: 'bigint' },
        { name: 'm', type: 'map<string,bigint>' },
        { name: 's', type: 'struct<f:string,args:map<string,string>>' },
        { name: 'a', type: 'array<map<string,string>>' },
      ],
    });
    await ws.insertRows(r, [
      { id: 1, m: { x: 1 }, s: { f: 'one', args: { column: 'a' } }, a: [{ k: 'v' }] },
      { id: 2, m: {}, s: { f: 'two', args: { regex: 'r', column: 'b' } }, a: [] },
      { id: 3, m: null, s: null, a: null },
    ]);
    const rows = (
      await ws.query('SELECT id, map_keys(m) AS mk, map_keys(s.args) AS sk, a FROM main.sales.maps ORDER BY id')
    ).rows;
    expect(rows).toEqual([
      { id: 1, mk: ['x'], sk: ['column'], a: [{ k: 'v' }] },
      { id: 2, mk: [], sk: ['regex', 'column'], a: [] },
      { id: 3, mk: null, sk: null, a: null },
    ]);
  });

  it('enforces CHECK constraints on new rows and refuses constraints existing rows break', async () => {
    const r = await peopleTable(ws, 'checked');
    await ws.addCheckConstraint(r, { name: 'positive_id', expression: 'id > 0' });
    expect(await ws.listConstraints(r)).toEqual([{ name: 'positive_id', expression: 'id > 0' }]);
    await expect(ws.insertRows(r, [{ id: -1 }])).rejects.toThrow(/positive_id/);
    await expect(ws.updateWhere(r, { id: '0 - id' }, 'id = 1')).rejects.toThrow(/positive_id/);
    await expect(ws.addCheckConstraint(r, { name: 'emea_only', expression: "region = 'EMEA'" })).rejects.toThrow(
      InvalidInputError,
    );
    expect(await ws.getProperties(r)).toEqual({});
    await ws.dropConstraint(r, 'positive_id');
    await expect(ws.insertRows(r, [{ id: -1 }])).resolves.toEqual({ numOutputRows: 1 });
  });

  it('restores, optimizes and vacuums a table', async () => {
    const r = await peopleTable(ws, 'maint');
    await ws.insertRows(r, [{ id: 4 }]);
    await ws.deleteWhere(r, 'id > 1');
    const restored = await ws.restoreTable(r, { version: 2 });
    expect(restored.numOfFilesAfterRestore).toBeGreaterThan(0);
    expect(await ids('SELECT id FROM main.sales.maint ORDER BY id')).toEqual([1, 2, 3, 4]);
    const opt = await ws.optimizeTable(r);
    expect(opt.numFilesRemoved).toBeGreaterThan(1);
    const dry = await ws.vacuumTable(r, { retentionHours: 0, dryRun: true });
    expect(dry.dryRun).toBe(true);
    expect(dry.files.length).toBeGreaterThan(0);
    await ws.vacuumTable(r, { retentionHours: 0 });
    expect(await ids('SELECT id FROM main.sales.maint ORDER BY id')).toEqual([1, 2, 3, 4]);
  });

  it('reads the change data feed when it is enabled, and says so when not', async () => {
    const r = await peopleTable(ws, 'cdf', { 'delta.enableChangeDataFeed': 'true' });
    await ws.updateWhere(r, { region: "'AMER'" }, 'id = 1');
    const changes = await ws.tableChanges(r, 2);
    expect(changes.map((c) => [c._change_type, c.id, c.region])).toEqual([
      ['update_preimage', 1, 'EMEA'],
      ['update_postimage', 1, 'AMER'],
    ]);
    const viaSql = await ws.query("SELECT count(*) AS n FROM table_changes('main.sales.cdf', 1, 2)");
    expect(viaSql.rows).toEqual([{ n: 5 }]);
    const plain = await peopleTable(ws, 'no_cdf');
    await expect(ws.tableChanges(plain, 0)).rejects.toThrow(/change data feed is not enabled/);
  });

  it('keeps plain Parquet tables readable and converts them to Delta in place', async () => {
    const r = ref('raw');
    await ws.createTable({
      ref: r,
      format: 'PARQUET',
      columns: [
        { name: 'k', type: 'int' },
        { name: 'v', type: 'string' },
      ],
    });
    await ws.insertRows(r, [
      { k: 1, v: 'a' },
      { k: 2, v: 'b' },
    ]);
    expect((await ws.describeTable(r)).format).toBe('PARQUET');
    await expect(ws.deleteWhere(r, 'k = 1')).rejects.toThrow(/needs a Delta table/);
    expect(await ws.convertToDelta(r)).toEqual({ numConvertedFiles: 1 });
    const d = await ws.describeTable(r);
    expect([d.format, d.version]).toEqual(['DELTA', 0]);
    await ws.deleteWhere(r, 'k = 1');
    expect((await ws.query('SELECT k, v FROM main.sales.raw')).rows).toEqual([{ k: 2, v: 'b' }]);
  });

  it('copies with a predicate and at a version, replacing the target', async () => {
    const r = await peopleTable(ws, 'copy_src');
    await ws.deleteWhere(r, 'id = 3');
    const m = await ws.copyTable({ source: r, target: ref('copy_dst'), where: "region <> 'APAC'", version: 1 });
    expect(m.numOutputRows).toBe(2);
    expect(await ids('SELECT id FROM main.sales.copy_dst ORDER BY id')).toEqual([1, 3]);
    await ws.copyTable({ source: r, target: ref('copy_dst') });
    expect(await ids('SELECT id FROM main.sales.copy_dst ORDER BY id')).toEqual([1, 2]);
    // Same schema: the replace is a new version, so the earlier copy is still there to travel back to.
    expect(await ids('SELECT id FROM main.sales.copy_dst VERSION AS OF 0 ORDER BY id')).toEqual([1, 3]);
    await ws.createTableAs({ ref: ref('copy_dst'), query: 'SELECT 1 AS other', replace: true });
    expect((await ws.describeTable(ref('copy_dst'))).columns.map((c) => c.name)).toEqual(['other']);
  });

  it('drops a managed table with its data, and reports details', async () => {
    const r = await peopleTable(ws, 'dropme');
    const detail = await ws.tableDetail(r);
    expect(detail).toMatchObject({ format: 'delta', name: 'main.sales.dropme', description: 'People', numFiles: 1 });
    await ws.dropTable(r);
    expect(await ws.tableExists(r)).toBe(false);
    await expect(ws.dropTable(r)).rejects.toThrow(/not found/);
    await expect(ws.dropTable(r, { ifExists: true })).resolves.toBeUndefined();
  });
});
