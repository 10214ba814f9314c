import { existsSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { InvalidInputError } from '../../platform/errors';
import { DeltaTable } from '../../platform/local/delta';
import { PEOPLE, peopleSql, tableRows, tempRoot } from './helpers';

const tmp = tempRoot('delta-dml');
afterAll(() => tmp.cleanup());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('DELETE / UPDATE and time travel', () => {
  test('deleteWhere rewrites only files with matching rows and reports numDeletedRows', async () => {
    const t = await DeltaTable.create(tmp.dir('delete'), { schema: PEOPLE });
    await t.append(peopleSql(0, 5)); // file A: 0..4
    await t.append(peopleSql(5, 5)); // file B: 5..9
    const before = await t.snapshot();
    const r = await t.deleteWhere('id IN (1, 2)');
    expect(r).toEqual({ version: 3, numDeletedRows: 2 });
    const after = await t.snapshot();
    const fileB = before.files.find((f) => after.files.some((g) => g.path === f.path));
    expect(fileB).toBeDefined(); // the file without matches is still live, untouched
    expect(after.numFiles).toBe(2);
    expect((await tableRows(await t.scanSql())).map((x) => x.id)).toEqual(['0', '3', '4', '5', '6', '7', '8', '9']);
    const h = (await t.history(1))[0];
    expect(h.operation).toBe('DELETE');
    expect(h.operationMetrics).toMatchObject({
      numDeletedRows: '2',
      numRemovedFiles: '1',
      numAddedFiles: '1',
      numCopiedRows: '3',
    });
  });

  test('deleting every row of a file drops the file without rewriting; no match still commits', async () => {
    const t = await DeltaTable.create(tmp.dir('delete-whole'), { schema: PEOPLE });
    await t.append(peopleSql(0, 3));
    await t.append(peopleSql(3, 3));
    const r = await t.deleteWhere('id < 3');
    expect(r.numDeletedRows).toBe(3);
    expect((await t.history(1))[0].operationMetrics).toMatchObject({ numRemovedFiles: '1', numAddedFiles: '0' });
    const none = await t.deleteWhere('id > 1000');
    expect(none).toEqual({ version: 4, numDeletedRows: 0 });
    expect((await t.snapshot()).numFiles).toBe(1);
  });

  test('updateWhere is copy-on-write: affected files replaced, others untouched, values updated', async () => {
    const t = await DeltaTable.create(tmp.dir('update'), { schema: PEOPLE });
    await t.append(peopleSql(0, 3));
    await t.append(peopleSql(10, 3));
    const before = await t.snapshot();
    const r = await t.updateWhere({ name: `upper(name)`, score: 'score + 1' }, 'id >= 10 AND id < 12');
    expect(r).toEqual({ version: 3, numUpdatedRows: 2 });
    const after = await t.snapshot();
    const untouched = before.files.filter((f) => after.files.some((g) => g.path === f.path));
    expect(untouched).toHaveLength(1);
    expect(await tableRows(await t.scanSql())).toEqual([
      { id: '0', name: 'p0', score: 0 },
      { id: '1', name: 'p1', score: 10 },
      { id: '2', name: 'p2', score: 20 },
      { id: '10', name: 'P10', score: 101 },
      { id: '11', name: 'P11', score: 111 },
      { id: '12', name: 'p12', score: 120 },
    ]);
    expect((await t.history(1))[0].operationMetrics).toMatchObject({ numUpdatedRows: '2', numCopiedRows: '1' });
  });

  test('update can move rows between partitions', async () => {
    const t = await DeltaTable.create(tmp.dir('update-partition'), { schema: PEOPLE, partitionColumns: ['score'] });
    await t.append(peopleSql(0, 3));
    await t.updateWhere({ score: '99' }, 'id = 0');
    const snap = await t.snapshot();
    expect(snap.files.map((f) => f.partitionValues.score).sort()).toEqual(['10', '20', '99']);
    expect((await tableRows(await t.scanSql())).map((x) => x.score)).toEqual([99, 10, 20]);
  });

  test('time travel by version and timestamp sees the table before updates and deletes', async () => {
    const t = await DeltaTable.create(tmp.dir('travel'), { schema: PEOPLE });
    await t.append(peopleSql(0, 4)); // v1
    await sleep(15);
    const afterAppend = new Date().toISOString();
    await sleep(15);
    await t.updateWhere({ name: `'changed'` }, 'id = 0'); // v2
    await t.deleteWhere('id = 3'); // v3
    expect((await tableRows(await t.scanSql({ version: 1 }))).map((x) => x.name)).toEqual(['p0', 'p1', 'p2', 'p3']);
    expect((await tableRows(await t.scanSql({ version: 2 }))).map((x) => x.name)).toEqual([
      'changed',
      'p1',
      'p2',
      'p3',
    ]);
    expect((await tableRows(await t.scanSql())).map((x) => x.name)).toEqual(['changed', 'p1', 'p2']);
    expect((await t.snapshot({ timestamp: afterAppend })).version).toBe(1);
    const v2 = (await t.history()).find((h) => h.version === 2)!;
    expect((await t.snapshot({ timestamp: v2.timestamp })).version).toBe(2);
    expect((await t.snapshot({ timestamp: '2999-01-01' })).version).toBe(3);
    await expect(t.snapshot({ timestamp: '2000-01-01 00:00:00' })).rejects.toThrow(/before the earliest version/);
    await expect(t.snapshot({ version: 1, timestamp: afterAppend })).rejects.toBeInstanceOf(InvalidInputError);
  });

  test('invalid DML input fails before any file is touched', async () => {
    const dir = tmp.dir('bad-dml');
    const t = await DeltaTable.create(dir, { schema: PEOPLE });
    await t.append(peopleSql(0, 3));
    const filesBefore = readdirSync(dir).sort();
    await expect(t.deleteWhere('')).rejects.toBeInstanceOf(InvalidInputError);
    await expect(t.deleteWhere('nocolumn = 1')).rejects.toBeInstanceOf(InvalidInputError);
    await expect(t.updateWhere({ nope: '1' }, 'true')).rejects.toThrow(/'nope' is not a column/);
    await expect(t.updateWhere({}, 'true')).rejects.toBeInstanceOf(InvalidInputError);
    await expect(t.updateWhere({ score: `'x'` }, 'id = 1')).rejects.toBeInstanceOf(InvalidInputError);
    expect(await t.latestVersion()).toBe(1);
    expect(readdirSync(dir).sort()).toEqual(filesBefore);
    expect(existsSync(path.join(dir, '_delta_log', '00000000000000000002.json'))).toBe(false);
  });

  test('delta.appendOnly forbids delete, update and overwrite', async () => {
    const t = await DeltaTable.create(tmp.dir('append-only'), {
      schema: PEOPLE,
      configuration: { 'delta.appendOnly': 'true' },
    });
    await t.append(peopleSql(0, 2));
    await expect(t.deleteWhere('true')).rejects.toThrow(/appendOnly/);
    await expect(t.overwrite(peopleSql(0, 1))).rejects.toThrow(/appendOnly/);
  });
});
