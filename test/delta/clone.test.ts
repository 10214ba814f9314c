import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { AlreadyExistsError, InvalidInputError } from '../../platform/errors';
import { DeltaTable } from '../../platform/local/delta';
import { SYSTEM_COPY_MIN_BYTES } from '../../platform/local/delta/file-copy';
import { PEOPLE, peopleSql, rows, tableRows, tempRoot } from './helpers';

const tmp = tempRoot('delta-clone');
afterAll(() => tmp.cleanup());

function parquetFiles(dir: string): string[] {
  return readdirSync(dir).filter((n) => n.endsWith('.parquet'));
}

async function source(name: string): Promise<DeltaTable> {
  const t = await DeltaTable.create(tmp.dir(name), { schema: PEOPLE, configuration: { team: 'a' } });
  await t.append(peopleSql(0, 3)); // v1
  await t.append(peopleSql(3, 3)); // v2
  return t;
}

describe('DEEP clone', () => {
  test('a data file above the system-copy threshold arrives whole, with the same rows and no temp files', async () => {
    const src = await DeltaTable.create(tmp.dir('deep-big-src'), { schema: PEOPLE });
    // Random-ish strings barely compress: one file well above the threshold.
    await src.append(
      `SELECT i::BIGINT AS id, md5(i::VARCHAR) || md5((i * 7)::VARCHAR) AS name, (i % 1000)::INT AS score FROM range(0, 400000) t(i)`,
    );
    const big = (await src.snapshot()).files.filter((f) => f.size >= SYSTEM_COPY_MIN_BYTES);
    expect(big.length).toBeGreaterThan(0);
    const target = tmp.dir('deep-big-dst');
    const m = await src.cloneTo(target, { mode: 'DEEP' });
    expect(m.copiedFilesSize).toBe((await src.snapshot()).sizeInBytes);
    const names = readdirSync(target);
    expect(names.filter((n) => n.includes('.tmp-'))).toEqual([]);
    for (const f of big) expect(statSync(path.join(target, f.path)).size).toBe(f.size);
    const clone = await DeltaTable.open(target);
    expect(
      await rows(`SELECT count(*)::BIGINT AS n, sum(hash(name))::HUGEINT::VARCHAR AS h FROM ${await clone.scanSql()}`),
    ).toEqual(
      await rows(`SELECT count(*)::BIGINT AS n, sum(hash(name))::HUGEINT::VARCHAR AS h FROM ${await src.scanSql()}`),
    );
  });

  test('copies the files, starts history at version 0 with CLONE and the six metrics', async () => {
    const src = await source('deep-src');
    const target = tmp.dir('deep-dst');
    const m = await src.cloneTo(target, { mode: 'DEEP', properties: { cloned: 'yes' } });
    const snap = await src.snapshot();
    expect(m).toEqual({
      sourceTableSize: snap.sizeInBytes,
      sourceNumOfFiles: 2,
      numRemovedFiles: 0,
      numCopiedFiles: 2,
      removedFilesSize: 0,
      copiedFilesSize: snap.sizeInBytes,
    });
    const clone = await DeltaTable.open(target);
    expect(await tableRows(await clone.scanSql())).toEqual(await tableRows(await src.scanSql()));
    const h = await clone.history();
    expect(h).toHaveLength(1);
    expect(h[0]).toMatchObject({
      version: 0,
      operation: 'CLONE',
      operationParameters: { source: src.dir, sourceVersion: '2', isShallow: 'false' },
    });
    expect(h[0].operationMetrics).toEqual({
      source_table_size: String(snap.sizeInBytes),
      source_num_of_files: '2',
      num_removed_files: '0',
      num_copied_files: '2',
      removed_files_size: '0',
      copied_files_size: String(snap.sizeInBytes),
    });
    const cs = await clone.snapshot();
    expect(cs.files.every((f) => !f.path.includes('/') && f.absolutePath.startsWith(target))).toBe(true);
    expect(cs.metadata.configuration).toEqual({ team: 'a', cloned: 'yes' });
    expect(cs.metadata.id).not.toBe(snap.metadata.id);
    const commit0 = JSON.parse(
      readFileSync(path.join(target, '_delta_log', '00000000000000000000.json'), 'utf8').split('\n')[0],
    );
    expect(commit0.commitInfo.clone).toEqual({
      sourceTableId: snap.metadata.id,
      sourceVersion: 2,
      sourcePath: src.dir,
    });
  });

  test('honours VERSION AS OF and refuses an existing target without replace', async () => {
    const src = await source('deep-tt-src');
    const target = tmp.dir('deep-tt-dst');
    const m = await src.cloneTo(target, { mode: 'DEEP', version: 1 });
    expect(m.numCopiedFiles).toBe(1);
    expect((await tableRows(await (await DeltaTable.open(target)).scanSql())).map((r) => r.id)).toEqual([
      '0',
      '1',
      '2',
    ]);
    await expect(src.cloneTo(target, { mode: 'DEEP' })).rejects.toBeInstanceOf(AlreadyExistsError);
    await expect(src.cloneTo(src.dir, { mode: 'DEEP', replace: true })).rejects.toBeInstanceOf(InvalidInputError);
    await expect(src.cloneTo(tmp.dir('x'), { mode: 'COPY' as 'DEEP' })).rejects.toBeInstanceOf(InvalidInputError);
  });

  test('re-running with replace copies only new files and removes files gone from the source', async () => {
    const src = await source('incr-src');
    const target = tmp.dir('incr-dst');
    await src.cloneTo(target, { mode: 'DEEP' });
    const firstCopies = parquetFiles(target).map((n) => [n, statSync(path.join(target, n)).ino]);
    await src.append(peopleSql(6, 2)); // new file
    await src.deleteWhere('id < 3'); // removes the first file entirely
    const removedSize = (await src.snapshot({ version: 1 })).sizeInBytes;
    const m = await src.cloneTo(target, { mode: 'DEEP', replace: true });
    const newFile = (await src.snapshot()).files.find((f) => f.numRecords === 2)!;
    expect(m).toMatchObject({
      sourceNumOfFiles: 2,
      numCopiedFiles: 1,
      numRemovedFiles: 1,
      removedFilesSize: removedSize,
      copiedFilesSize: newFile.size,
    });
    // The file that was already there was not copied again (same inode).
    for (const [name, ino] of firstCopies)
      if (existsSync(path.join(target, String(name)))) expect(statSync(path.join(target, String(name))).ino).toBe(ino);
    const clone = await DeltaTable.open(target);
    expect(await clone.latestVersion()).toBe(1);
    expect(await tableRows(await clone.scanSql())).toEqual(await tableRows(await src.scanSql()));
    const again = await src.cloneTo(target, { mode: 'DEEP', replace: true });
    expect(again).toMatchObject({ numCopiedFiles: 0, numRemovedFiles: 0 });
  });
});

describe('SHALLOW clone', () => {
  test('references the source files by absolute file:// URIs and copies nothing', async () => {
    const src = await source('shallow-src');
    const target = tmp.dir('shallow-dst');
    const m = await src.cloneTo(target, { mode: 'SHALLOW', version: 2 });
    expect(m).toMatchObject({ numCopiedFiles: 0, copiedFilesSize: 0, sourceNumOfFiles: 2 });
    expect(parquetFiles(target)).toEqual([]);
    const clone = await DeltaTable.open(target);
    const snap = await clone.snapshot();
    expect(snap.files.every((f) => f.path.startsWith('file://') && f.absolutePath.startsWith(src.dir))).toBe(true);
    expect((await clone.history())[0].operationParameters.isShallow).toBe('true');
    expect(await tableRows(await clone.scanSql())).toEqual(await tableRows(await src.scanSql()));
  });

  test('writes to the shallow clone never change the source', async () => {
    const src = await source('iso-src');
    const srcFilesBefore = parquetFiles(src.dir).sort();
    const srcRowsBefore = await tableRows(await src.scanSql());
    const target = tmp.dir('iso-dst');
    await src.cloneTo(target, { mode: 'SHALLOW' });
    const clone = await DeltaTable.open(target);
    await clone.updateWhere({ name: `'clone-only'` }, 'id = 0');
    await clone.deleteWhere('id = 5');
    await clone.append(peopleSql(50, 1));
    await clone.vacuum({ retentionHours: 0 });
    expect(parquetFiles(src.dir).sort()).toEqual(srcFilesBefore);
    expect(await tableRows(await src.scanSql())).toEqual(srcRowsBefore);
    expect(await src.latestVersion()).toBe(2);
    const cloneRows = await tableRows(await clone.scanSql());
    expect(cloneRows.map((r) => r.id)).toEqual(['0', '1', '2', '3', '4', '50']);
    expect(cloneRows[0].name).toBe('clone-only');
    expect(parquetFiles(target).length).toBeGreaterThan(0); // new files land in the clone's folder
  });
});
