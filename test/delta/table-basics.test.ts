import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { AlreadyExistsError, InvalidInputError, NotFoundError } from '../../platform/errors';
import { DeltaTable } from '../../platform/local/delta';
import { PEOPLE, peopleSql, rows, tableRows, tempRoot } from './helpers';

const tmp = tempRoot('delta-basics');
afterAll(() => tmp.cleanup());

function logLines(dir: string, version: number): Record<string, any>[] {
  const file = path.join(dir, '_delta_log', `${String(version).padStart(20, '0')}.json`);
  return readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
}

describe('Delta table basics', () => {
  test('create writes version 0 with protocol 1/2, Spark schemaString and CREATE TABLE commitInfo', async () => {
    const dir = tmp.dir('create');
    const t = await DeltaTable.create(
      dir,
      { schema: PEOPLE, configuration: { owner: 'team-a' } },
      { userName: 'alice' },
    );
    expect(await t.latestVersion()).toBe(0);
    const actions = logLines(dir, 0);
    const protocol = actions.find((a) => a.protocol)!.protocol;
    expect(protocol).toEqual({ minReaderVersion: 1, minWriterVersion: 2 });
    const meta = actions.find((a) => a.metaData)!.metaData;
    expect(meta.format).toEqual({ provider: 'parquet', options: {} });
    expect(JSON.parse(meta.schemaString).fields.map((f: any) => [f.name, f.type, f.nullable])).toEqual([
      ['id', 'long', false],
      ['name', 'string', true],
      ['score', 'integer', true],
    ]);
    expect(meta.configuration).toEqual({ owner: 'team-a' });
    expect(typeof meta.createdTime).toBe('number');
    const info = actions.find((a) => a.commitInfo)!.commitInfo;
    expect(info.operation).toBe('CREATE TABLE');
    expect(info.userName).toBe('alice');
  });

  test('an empty table scans with typed columns', async () => {
    const t = await DeltaTable.create(tmp.dir('empty'), { schema: PEOPLE, partitionColumns: ['score'] });
    const described = await rows(`DESCRIBE SELECT * FROM ${await t.scanSql()}`);
    expect(described.map((r) => [r.column_name, r.column_type])).toEqual([
      ['id', 'BIGINT'],
      ['name', 'VARCHAR'],
      ['score', 'INTEGER'],
    ]);
    expect(await tableRows(await t.scanSql())).toEqual([]);
  });

  test('append writes uniquely named files with relative paths and stats', async () => {
    const dir = tmp.dir('append');
    const t = await DeltaTable.create(dir, { schema: PEOPLE });
    const r = await t.append(peopleSql(0, 5));
    expect(r).toEqual({ version: 1, numOutputRows: 5 });
    const add = logLines(dir, 1).find((a) => a.add)!.add;
    expect(add.path).toMatch(/^part-00000-[0-9a-f-]{36}\.c000\.snappy\.parquet$/);
    expect(add.dataChange).toBe(true);
    expect(JSON.parse(add.stats)).toEqual({
      numRecords: 5,
      minValues: { id: 0, name: 'p0', score: 0 },
      maxValues: { id: 4, name: 'p4', score: 40 },
      nullCount: { id: 0, name: 0, score: 0 },
    });
    const info = logLines(dir, 1).find((a) => a.commitInfo)!.commitInfo;
    expect(info.operation).toBe('WRITE');
    expect(info.operationParameters.mode).toBe('Append');
    expect(info.operationMetrics).toMatchObject({ numFiles: '1', numOutputRows: '5' });
    await t.append(peopleSql(5, 2));
    expect((await tableRows(await t.scanSql())).map((r) => r.id)).toEqual(['0', '1', '2', '3', '4', '5', '6']);
  });

  test('partitioned tables keep partition values in the log and return them on scan', async () => {
    const dir = tmp.dir('partitioned');
    const t = await DeltaTable.create(dir, {
      schema: [...PEOPLE, { name: 'region', type: 'string', nullable: true }],
      partitionColumns: ['region'],
    });
    await t.append(
      `SELECT i::BIGINT, 'p'||i, i::INT, CASE WHEN i % 2 = 0 THEN 'eu' ELSE 'us west' END FROM range(4) t(i)`,
    );
    const snap = await t.snapshot();
    expect(snap.files.map((f) => f.partitionValues.region).sort()).toEqual(['eu', 'us west']);
    expect(snap.files.every((f) => existsSync(f.absolutePath))).toBe(true);
    const got = await tableRows(await t.scanSql());
    expect(got.map((r) => [r.id, r.region])).toEqual([
      ['0', 'eu'],
      ['1', 'us west'],
      ['2', 'eu'],
      ['3', 'us west'],
    ]);
  });

  test('a CTAS whose query fails at run time leaves no folder behind', async () => {
    const dir = tmp.dir('ctas-fails');
    await expect(
      DeltaTable.createAs(dir, `SELECT CAST('x' || i AS INT) AS a FROM range(3) t(i)`, {}),
    ).rejects.toBeInstanceOf(InvalidInputError);
    expect(existsSync(dir)).toBe(false);
  });

  test('CTAS takes the schema from the query', async () => {
    const t = await DeltaTable.createAs(
      tmp.dir('ctas'),
      `SELECT 1::BIGINT AS a, 'x' AS b, DATE '2024-02-03' AS d, 1.5::DECIMAL(10,2) AS m`,
      {},
    );
    const snap = await t.snapshot();
    expect(snap.metadata.schema.map((f) => `${f.name}:${f.type}`)).toEqual([
      'a:bigint',
      'b:string',
      'd:date',
      'm:decimal(10,2)',
    ]);
    expect((await t.history())[0].operation).toBe('CREATE TABLE AS SELECT');
    expect(await tableRows(await t.scanSql(), 'a')).toEqual([{ a: '1', b: 'x', d: '2024-02-03', m: '1.50' }]);
  });

  test('overwrite replaces all rows and keeps the old version readable', async () => {
    const t = await DeltaTable.create(tmp.dir('overwrite'), { schema: PEOPLE });
    await t.append(peopleSql(0, 3));
    const r = await t.overwrite(peopleSql(100, 2));
    expect(r).toEqual({ version: 2, numOutputRows: 2 });
    expect((await tableRows(await t.scanSql())).map((x) => x.id)).toEqual(['100', '101']);
    expect((await tableRows(await t.scanSql({ version: 1 }))).map((x) => x.id)).toEqual(['0', '1', '2']);
    expect((await t.history(1))[0].operationParameters.mode).toBe('Overwrite');
  });

  test('a reopened table sees everything committed before (persistence)', async () => {
    const dir = tmp.dir('persist');
    const t = await DeltaTable.create(dir, { schema: PEOPLE, description: 'people' });
    await t.append(peopleSql(0, 4));
    const reopened = await DeltaTable.open(dir);
    expect(await reopened.latestVersion()).toBe(1);
    expect((await tableRows(await reopened.scanSql())).length).toBe(4);
    const detail = await reopened.detail();
    expect(detail).toMatchObject({
      format: 'delta',
      location: dir,
      numFiles: 1,
      minReaderVersion: 1,
      minWriterVersion: 2,
      description: 'people',
      partitionColumns: [],
    });
    expect(detail.sizeInBytes).toBeGreaterThan(0);
    expect(Date.parse(detail.lastModified!)).toBeGreaterThanOrEqual(Date.parse(detail.createdAt!));
    expect((await reopened.history()).map((h) => [h.version, h.operation])).toEqual([
      [1, 'WRITE'],
      [0, 'CREATE TABLE'],
    ]);
  });

  test('updateMetadata sets and unsets properties and records the operation', async () => {
    const t = await DeltaTable.create(tmp.dir('props'), { schema: PEOPLE, configuration: { a: '1' } });
    await t.updateMetadata({ setProperties: { b: '2' } });
    await t.updateMetadata({ unsetProperties: ['a'] });
    expect((await t.snapshot()).metadata.configuration).toEqual({ b: '2' });
    expect((await t.history()).slice(0, 2).map((h) => h.operation)).toEqual([
      'UNSET TBLPROPERTIES',
      'SET TBLPROPERTIES',
    ]);
    await t.updateMetadata({
      schema: PEOPLE.map((f) => (f.name === 'name' ? { ...f, metadata: { comment: 'full name' } } : f)),
    });
    expect((await t.snapshot()).metadata.schema[1].metadata).toEqual({ comment: 'full name' });
    await expect(t.updateMetadata({ schema: PEOPLE.slice(0, 2) })).rejects.toBeInstanceOf(InvalidInputError);
  });

  test('ADD COLUMNS: older files read the new column as NULL, new writes fill it', async () => {
    const t = await DeltaTable.create(tmp.dir('add-columns'), { schema: PEOPLE, partitionColumns: ['score'] });
    await t.append(peopleSql(0, 2));
    await t.updateMetadata({ schema: [...PEOPLE, { name: 'email', type: 'string', nullable: true }] });
    expect((await t.history(1))[0].operation).toBe('ADD COLUMNS');
    await t.append(`SELECT 9::BIGINT, 'p9', 90, 'p9@x'`);
    expect((await tableRows(await t.scanSql())).map((r) => [r.id, r.email])).toEqual([
      ['0', null],
      ['1', null],
      ['9', 'p9@x'],
    ]);
    expect((await tableRows(await t.scanSql({ version: 1 }))).map((r) => Object.keys(r))).toEqual([
      ['id', 'name', 'score'],
      ['id', 'name', 'score'],
    ]);
    await t.updateWhere({ email: `'zero@x'` }, 'id = 0');
    expect((await tableRows(await t.scanSql()))[0].email).toBe('zero@x');
    const withEmail = (await t.snapshot()).metadata.schema;
    await expect(
      t.updateMetadata({ schema: [...withEmail, { name: 'x', type: 'int', nullable: false }] }),
    ).rejects.toThrow(/must be nullable/);
  });

  test('errors: missing table, existing table, bad input, NOT NULL — and nothing written', async () => {
    await expect(DeltaTable.open(tmp.dir('nope'))).rejects.toBeInstanceOf(NotFoundError);
    const dir = tmp.dir('errors');
    await expect(
      DeltaTable.create(dir, { schema: [{ name: 'a', type: 'varchar2', nullable: true }] }),
    ).rejects.toBeInstanceOf(InvalidInputError);
    await expect(DeltaTable.create(dir, { schema: PEOPLE, partitionColumns: ['nope'] })).rejects.toBeInstanceOf(
      InvalidInputError,
    );
    expect(existsSync(dir)).toBe(false);
    const t = await DeltaTable.create(dir, { schema: PEOPLE });
    await expect(DeltaTable.create(dir, { schema: PEOPLE })).rejects.toBeInstanceOf(AlreadyExistsError);
    await expect(t.append('SELEC nonsense')).rejects.toBeInstanceOf(InvalidInputError);
    await expect(t.append('SELECT 1')).rejects.toThrow(/1 columns but the table has 3/);
    await expect(t.append(`SELECT NULL::BIGINT, 'x', 1`)).rejects.toThrow(/'id' is NOT NULL/);
    await expect(t.append(`SELECT 'abc', 'x', 1`)).rejects.toBeInstanceOf(InvalidInputError);
    await expect(t.snapshot({ version: 7 })).rejects.toBeInstanceOf(InvalidInputError);
    await expect(t.snapshot({ timestamp: 'yesterday-ish' })).rejects.toBeInstanceOf(InvalidInputError);
    expect(await t.latestVersion()).toBe(0);
    expect(readdirSync(dir).filter((n) => n !== '_delta_log')).toEqual([]);
  });
});
