import { existsSync, mkdirSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { InvalidInputError, NotFoundError } from '../../platform/errors';
import { DeltaTable } from '../../platform/local/delta';
import { PEOPLE, peopleSql, rows, tableRows, tempRoot } from './helpers';

const tmp = tempRoot('delta-maint');
afterAll(() => tmp.cleanup());

const HOUR = 3600_000;

describe('RESTORE', () => {
  test('restores an earlier version as a new version with the six metrics', async () => {
    const t = await DeltaTable.create(tmp.dir('restore'), { schema: PEOPLE });
    await t.append(peopleSql(0, 2)); // v1
    await t.append(peopleSql(2, 2)); // v2
    await t.deleteWhere('id = 0'); // v3
    const v1 = await t.snapshot({ version: 1 });
    const m = await t.restore({ version: 1 });
    expect(await t.latestVersion()).toBe(4);
    expect(await tableRows(await t.scanSql())).toEqual(await tableRows(await t.scanSql({ version: 1 })));
    expect(m).toMatchObject({
      tableSizeAfterRestore: v1.sizeInBytes,
      numOfFilesAfterRestore: 1,
      numRemovedFiles: 2,
      numRestoredFiles: 1,
    });
    const h = (await t.history(1))[0];
    expect(h.operation).toBe('RESTORE');
    expect(h.operationParameters).toEqual({ version: '1' });
    expect(Object.keys(h.operationMetrics).sort()).toEqual([
      'num_of_files_after_restore',
      'num_removed_files',
      'num_restored_files',
      'removed_files_size',
      'restored_files_size',
      'table_size_after_restore',
    ]);
    const byTime = await t.restore({ timestamp: (await t.history()).find((x) => x.version === 2)!.timestamp });
    expect(byTime.numOfFilesAfterRestore).toBe(2);
    await expect(t.restore({})).rejects.toBeInstanceOf(InvalidInputError);
  });

  test('fails clearly when the files of the target version were vacuumed', async () => {
    const t = await DeltaTable.create(tmp.dir('restore-vacuumed'), { schema: PEOPLE });
    await t.append(peopleSql(0, 2));
    await t.overwrite(peopleSql(5, 1));
    await t.vacuum({ retentionHours: 0, now: Date.now() + HOUR });
    await expect(t.restore({ version: 1 })).rejects.toThrow(NotFoundError);
    await expect(t.restore({ version: 1 })).rejects.toThrow(/removed by VACUUM/);
    expect(await t.latestVersion()).toBe(2);
  });
});

describe('OPTIMIZE', () => {
  test('compacts small files into one per partition with dataChange=false', async () => {
    const t = await DeltaTable.create(tmp.dir('optimize'), { schema: PEOPLE });
    for (let i = 0; i < 4; i++) await t.append(peopleSql(i * 10, 3));
    const before = await tableRows(await t.scanSql());
    const m = await t.optimize();
    expect(m).toMatchObject({ numFilesAdded: 1, numFilesRemoved: 4 });
    expect(m.bytesAdded).toBeGreaterThan(0);
    const snap = await t.snapshot();
    expect(snap.numFiles).toBe(1);
    expect(await tableRows(await t.scanSql())).toEqual(before);
    const h = (await t.history(1))[0];
    expect(h.operation).toBe('OPTIMIZE');
    expect(Object.keys(h.operationMetrics).sort()).toEqual([
      'numAddedBytes',
      'numAddedFiles',
      'numRemovedBytes',
      'numRemovedFiles',
    ]);
    expect(await t.optimize()).toEqual({ numFilesAdded: 0, numFilesRemoved: 0, bytesAdded: 0, bytesRemoved: 0 });
    expect(await t.latestVersion()).toBe(5);
  });
});

describe('VACUUM', () => {
  test('deletes unreferenced files only after the retention, never the log; dry run lists them', async () => {
    const dir = tmp.dir('vacuum');
    const t = await DeltaTable.create(dir, { schema: PEOPLE });
    await t.append(peopleSql(0, 2));
    await t.overwrite(peopleSql(5, 2)); // tombstones the first file
    const orphan = path.join(dir, 'part-00000-orphan.c000.snappy.parquet');
    writeFileSync(orphan, 'x');
    const old = new Date(Date.now() - 200 * HOUR);
    utimesSync(orphan, old, old);
    const tombstoned = (await t.snapshot({ version: 1 })).files[0].path;
    // Default retention (168 h): the fresh tombstone stays, the 200-hour-old orphan goes.
    const dry = await t.vacuum({ dryRun: true });
    expect(dry).toMatchObject({ dryRun: true, files: ['part-00000-orphan.c000.snappy.parquet'] });
    expect(existsSync(orphan)).toBe(true);
    const later = await t.vacuum({ now: Date.now() + 169 * HOUR });
    expect(later.files.sort()).toEqual([tombstoned, 'part-00000-orphan.c000.snappy.parquet'].sort());
    expect(existsSync(orphan)).toBe(false);
    expect(existsSync(path.join(dir, '_delta_log', '00000000000000000000.json'))).toBe(true);
    expect((await tableRows(await t.scanSql())).map((r) => r.id)).toEqual(['5', '6']);
    await expect(t.vacuum({ retentionHours: -1 })).rejects.toBeInstanceOf(InvalidInputError);
  });

  test('never deletes files a shallow clone still references (protectedPaths), and leaves _ folders alone', async () => {
    const dir = tmp.dir('vacuum-shallow');
    const t = await DeltaTable.create(dir, { schema: PEOPLE });
    await t.append(peopleSql(0, 2));
    const clone = tmp.dir('vacuum-shallow-clone');
    await t.cloneTo(clone, { mode: 'SHALLOW' });
    await t.overwrite(peopleSql(9, 1));
    mkdirSync(path.join(dir, '_private'));
    writeFileSync(path.join(dir, '_private', 'keep.parquet'), 'x');
    const referenced = new Set((await (await DeltaTable.open(clone)).snapshot()).files.map((f) => f.absolutePath));
    const kept = await t.vacuum({ retentionHours: 0, now: Date.now() + HOUR, protectedPaths: referenced });
    expect(kept.files).toEqual([]);
    expect(await tableRows(await (await DeltaTable.open(clone)).scanSql())).toHaveLength(2);
    // Without the protection the clone's files are deleted and the clone breaks, as in Databricks.
    const gone = await t.vacuum({ retentionHours: 0, now: Date.now() + HOUR });
    expect(gone.files).toHaveLength(1);
    await expect(rows(`SELECT * FROM ${await (await DeltaTable.open(clone)).scanSql()}`)).rejects.toThrow();
    expect(existsSync(path.join(dir, '_private', 'keep.parquet'))).toBe(true);
  });
});

describe('CONVERT TO DELTA', () => {
  test('writes version 0 over existing Parquet files without rewriting them', async () => {
    const dir = tmp.dir('convert');
    mkdirSync(dir);
    await rows(
      `COPY (SELECT i::BIGINT AS id, 'c' || i AS name FROM range(3) t(i)) TO '${dir}/a.parquet' (FORMAT parquet)`,
    );
    await rows(
      `COPY (SELECT i::BIGINT AS id, 'c' || i AS name FROM range(3, 5) t(i)) TO '${dir}/b.parquet' (FORMAT parquet)`,
    );
    const m = await DeltaTable.convertParquet(dir);
    expect(m).toEqual({ numConvertedFiles: 2 });
    const t = await DeltaTable.open(dir);
    const snap = await t.snapshot();
    expect(snap.metadata.schema.map((f) => `${f.name}:${f.type}`)).toEqual(['id:bigint', 'name:string']);
    expect(snap.files.map((f) => [f.path, f.numRecords]).sort()).toEqual([
      ['a.parquet', 3],
      ['b.parquet', 2],
    ]);
    expect((await t.history())[0]).toMatchObject({
      version: 0,
      operation: 'CONVERT',
      operationMetrics: { numConvertedFiles: '2' },
    });
    expect((await tableRows(await t.scanSql())).map((r) => r.id)).toEqual(['0', '1', '2', '3', '4']);
    expect(readdirSync(dir).sort()).toEqual(['_delta_log', 'a.parquet', 'b.parquet']);
    expect(await DeltaTable.convertParquet(dir)).toEqual({ numConvertedFiles: 0 });
    await expect(DeltaTable.convertParquet(tmp.dir('missing'))).rejects.toBeInstanceOf(NotFoundError);
  });
});
