import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { InvalidInputError } from '../../platform/errors';
import { DeltaTable } from '../../platform/local/delta';
import { PEOPLE, peopleSql, rows, tempRoot } from './helpers';

const tmp = tempRoot('delta-cdf');
afterAll(() => tmp.cleanup());

const CDF = { 'delta.enableChangeDataFeed': 'true' };

async function changes(t: DeltaTable, start: number, end?: number) {
  const sql = await t.changesSql(start, end);
  return rows(
    `SELECT id, name, _change_type, _commit_version FROM ${sql} ORDER BY _commit_version, id, _change_type DESC`,
  );
}

describe('change data feed', () => {
  test('appends are inserts, deleteWhere deletes, updateWhere pre/post images', async () => {
    const dir = tmp.dir('cdf');
    const t = await DeltaTable.create(dir, { schema: PEOPLE, configuration: CDF });
    expect((await t.snapshot()).protocol.minWriterVersion).toBeGreaterThanOrEqual(4);
    await t.append(peopleSql(0, 3)); // v1
    await t.updateWhere({ name: `'new'` }, 'id = 1'); // v2
    await t.deleteWhere('id = 2'); // v3
    expect(await changes(t, 0)).toEqual([
      { id: '0', name: 'p0', _change_type: 'insert', _commit_version: '1' },
      { id: '1', name: 'p1', _change_type: 'insert', _commit_version: '1' },
      { id: '2', name: 'p2', _change_type: 'insert', _commit_version: '1' },
      { id: '1', name: 'p1', _change_type: 'update_preimage', _commit_version: '2' },
      { id: '1', name: 'new', _change_type: 'update_postimage', _commit_version: '2' },
      { id: '2', name: 'p2', _change_type: 'delete', _commit_version: '3' },
    ]);
    expect(existsSync(path.join(dir, '_change_data'))).toBe(true);
    expect(await changes(t, 3, 3)).toEqual([{ id: '2', name: 'p2', _change_type: 'delete', _commit_version: '3' }]);
    const ts = await rows(`SELECT DISTINCT _commit_version, _commit_timestamp FROM ${await t.changesSql(1, 1)}`);
    const v1 = (await t.history()).find((h) => h.version === 1)!;
    expect(Date.parse(String(ts[0]._commit_timestamp).replace(' ', 'T').replace(/\+00$/, 'Z'))).toBe(
      Date.parse(v1.timestamp),
    );
  });

  test('an empty range is typed; bad ranges and tables without CDF are rejected', async () => {
    const t = await DeltaTable.create(tmp.dir('cdf-empty'), { schema: PEOPLE, configuration: CDF });
    const described = await rows(`DESCRIBE SELECT * FROM ${await t.changesSql(0)}`);
    expect(described.map((r) => r.column_name)).toEqual([
      'id',
      'name',
      'score',
      '_change_type',
      '_commit_version',
      '_commit_timestamp',
    ]);
    await expect(t.changesSql(5)).rejects.toBeInstanceOf(InvalidInputError);
    await expect(t.changesSql(-1)).rejects.toBeInstanceOf(InvalidInputError);
    const plain = await DeltaTable.create(tmp.dir('no-cdf'), { schema: PEOPLE });
    await plain.append(peopleSql(0, 1));
    await expect(plain.changesSql(0)).rejects.toThrow(/change data feed is not enabled/);
  });

  test('enabling CDF later with SET TBLPROPERTIES works from that version on', async () => {
    const t = await DeltaTable.create(tmp.dir('cdf-later'), { schema: PEOPLE });
    await t.append(peopleSql(0, 1)); // v1
    const { version } = await t.updateMetadata({ setProperties: CDF }); // v2
    await t.overwrite(peopleSql(5, 1)); // v3: remove + add, derived as delete + insert
    expect(await changes(t, version)).toEqual([
      { id: '0', name: 'p0', _change_type: 'delete', _commit_version: '3' },
      { id: '5', name: 'p5', _change_type: 'insert', _commit_version: '3' },
    ]);
    await expect(t.changesSql(1)).rejects.toThrow(/not enabled/);
  });
});
