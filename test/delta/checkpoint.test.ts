import { cpSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import { DeltaTable } from '../../platform/local/delta';
import { PEOPLE, peopleSql, tableRows, tempRoot } from './helpers';

const tmp = tempRoot('delta-checkpoint');
afterAll(() => tmp.cleanup());

function logNames(dir: string): string[] {
  return readdirSync(path.join(dir, '_delta_log')).filter((n) => !n.startsWith('.'));
}

describe('checkpoints', () => {
  let dir: string;
  let expected: Record<string, unknown>[];

  beforeAll(async () => {
    dir = tmp.dir('many');
    const t = await DeltaTable.create(dir, { schema: PEOPLE, partitionColumns: ['score'], configuration: { k: 'v' } });
    for (let v = 1; v <= 24; v++) {
      if (v % 7 === 0) await t.deleteWhere(`id = ${v - 3}`);
      else await t.append(peopleSql(v, 1));
    }
    expected = await tableRows(await t.scanSql());
  });

  test('a classic checkpoint is written every 10 commits with _last_checkpoint', () => {
    const names = logNames(dir);
    expect(names.filter((n) => n.includes('checkpoint'))).toEqual([
      '00000000000000000010.checkpoint.parquet',
      '00000000000000000020.checkpoint.parquet',
      '_last_checkpoint',
    ]);
    expect(JSON.parse(readFileSync(path.join(dir, '_delta_log', '_last_checkpoint'), 'utf8')).version).toBe(20);
  });

  test('a fresh open agrees with full log replay, at the head and at older versions', async () => {
    const replayOnly = tmp.dir('replay-only');
    cpSync(dir, replayOnly, { recursive: true });
    for (const n of logNames(replayOnly)) if (n.includes('checkpoint')) rmSync(path.join(replayOnly, '_delta_log', n));
    const withCp = await DeltaTable.open(dir);
    const without = await DeltaTable.open(replayOnly);
    expect(await tableRows(await withCp.scanSql())).toEqual(expected);
    for (const version of [5, 10, 15, 24]) {
      const a = await withCp.snapshot({ version });
      const b = await without.snapshot({ version });
      expect(a.files.map((f) => f.path).sort()).toEqual(b.files.map((f) => f.path).sort());
      expect(a.metadata).toEqual(b.metadata);
      expect(await tableRows(await withCp.scanSql({ version }))).toEqual(
        await tableRows(await without.scanSql({ version })),
      );
    }
  });

  test('the checkpoint alone carries the state: commits before it may be cleaned up', async () => {
    const trimmed = tmp.dir('trimmed');
    cpSync(dir, trimmed, { recursive: true });
    for (const n of logNames(trimmed))
      if (/^\d{20}\.json$/.test(n) && Number(n.slice(0, 20)) <= 20) rmSync(path.join(trimmed, '_delta_log', n));
    const t = await DeltaTable.open(trimmed);
    expect(await t.latestVersion()).toBe(24);
    expect(await tableRows(await t.scanSql())).toEqual(expected);
    const snap = await t.snapshot();
    expect(snap.metadata.configuration).toEqual({ k: 'v' });
    expect(snap.metadata.partitionColumns).toEqual(['score']);
    await t.append(peopleSql(100, 1));
    expect(await t.latestVersion()).toBe(25);
  });
});
