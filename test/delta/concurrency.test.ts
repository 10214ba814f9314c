import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { ConflictError } from '../../platform/errors';
import { DeltaTable } from '../../platform/local/delta';
import { PEOPLE, peopleSql, tableRows, tempRoot } from './helpers';

const tmp = tempRoot('delta-concurrency');
afterAll(() => tmp.cleanup());

describe('optimistic concurrency', () => {
  test('two writers racing for the same version: exactly one wins, the other gets ConflictError', async () => {
    const dir = tmp.dir('race');
    await DeltaTable.create(dir, { schema: PEOPLE });
    for (let round = 0; round < 3; round++) {
      const a = await DeltaTable.open(dir);
      const b = await DeltaTable.open(dir);
      const base = await a.latestVersion();
      const results = await Promise.allSettled([a.overwrite(peopleSql(round * 10, 2)), b.deleteWhere('true')]);
      const won = results.filter((r) => r.status === 'fulfilled');
      const lost = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      expect(won).toHaveLength(1);
      expect(lost).toHaveLength(1);
      expect(lost[0].reason).toBeInstanceOf(ConflictError);
      expect(await (await DeltaTable.open(dir)).latestVersion()).toBe(base + 1);
    }
  });

  test("the losing commit leaves no partial version: log holds only complete commits, data is the winner's", async () => {
    const dir = tmp.dir('loser');
    await DeltaTable.create(dir, { schema: PEOPLE });
    const a = await DeltaTable.open(dir);
    const b = await DeltaTable.open(dir);
    // Both read version 0 first, so both target version 1.
    await a.snapshot();
    await b.snapshot();
    const results = await Promise.allSettled([a.append(peopleSql(0, 3)), b.append(peopleSql(100, 3))]);
    expect(results.filter((r) => r.status === 'rejected')).toHaveLength(1);
    const logFiles = readdirSync(path.join(dir, '_delta_log'));
    expect(logFiles.sort()).toEqual(['00000000000000000000.json', '00000000000000000001.json']);
    for (const f of logFiles) {
      for (const line of readFileSync(path.join(dir, '_delta_log', f), 'utf8')
        .trim()
        .split('\n'))
        expect(() => JSON.parse(line)).not.toThrow();
    }
    const ids = (await tableRows(await (await DeltaTable.open(dir)).scanSql())).map((r) => Number(r.id));
    expect([
      [0, 1, 2],
      [100, 101, 102],
    ]).toContainEqual(ids);
    // The loser can retry on top of the winner.
    const loser = results[0].status === 'rejected' ? a : b;
    await loser.append(peopleSql(200, 1));
    expect(await loser.latestVersion()).toBe(2);
  });
});
