import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { InvalidInputError } from '../../platform/errors';
import type { LocalWorkspace } from '../../platform/local/workspace';
import { peopleTable, ref, tempRoots, workspaceWithSchema } from './helpers';

/** mergeChanges: a source's change feed applied to its copy by key, in one Delta commit. */
const PYTHON = path.resolve(__dirname, '../../.venv/bin/python');
const PROBE = path.resolve(__dirname, '../delta/delta_rs_probe.py');

const roots = tempRoots();
let ws: LocalWorkspace;
beforeAll(async () => {
  ws = await workspaceWithSchema(roots.make());
});
afterAll(() => roots.cleanup());

const rowsOf = async (name: string) =>
  (await ws.query(`SELECT id, name, region, CAST(score AS STRING) AS score FROM main.sales.${name} ORDER BY id`)).rows;

describe('local mergeChanges', () => {
  it('applies inserts, updates and deletes of a change feed in one MERGE commit, readable by delta-rs', async () => {
    const src = await peopleTable(ws, 'm_src', { 'delta.enableChangeDataFeed': 'true' });
    const dst = ref('m_dst');
    await ws.cloneTable({ source: src, target: dst, cloneType: 'DEEP' });
    const from = (await ws.describeTable(src)).version! + 1;
    await ws.updateWhere(src, { region: "'AMER'", score: 'score + 1' }, 'id = 1');
    await ws.deleteWhere(src, 'id = 2');
    await ws.insertRows(src, [
      { id: 7, name: 'Gus', region: 'EMEA', score: 3 },
      { id: 8, name: 'Hal', region: 'APAC', score: 4 },
    ]);
    await ws.updateWhere(src, { name: "'Gustav'" }, 'id = 7');
    await ws.deleteWhere(src, 'id = 8');
    const changes = await ws.tableChanges(src, from);
    const before = (await ws.describeTable(dst)).version!;

    const out = await ws.mergeChanges(dst, changes, { keys: ['id'] });

    expect(out).toEqual({ numInsertedRows: 1, numUpdatedRows: 1, numDeletedRows: 1 });
    expect(await rowsOf('m_dst')).toEqual(await rowsOf('m_src'));
    expect(await ws.tableChecksum(dst)).toBe(await ws.tableChecksum(src));
    const history = await ws.tableHistory(dst, 5);
    expect(history[0]).toMatchObject({ version: before + 1, operation: 'MERGE' });
    const detail = await ws.tableDetail(dst);
    const rs = JSON.parse(execFileSync(PYTHON, [PROBE, 'read', detail.location!], { encoding: 'utf8' })) as {
      version: number;
      rows: Record<string, string | null>[];
    };
    expect(rs.version).toBe(before + 1);
    expect(rs.rows.map((r) => [r.id, r.name, r.region]).sort()).toEqual([
      ['1', 'Ann', 'AMER'],
      ['3', null, 'AMER'],
      ['7', 'Gustav', 'EMEA'],
    ]);
  });

  it('writes its own change feed when the target has one on', async () => {
    const dst = await peopleTable(ws, 'm_cdf', { 'delta.enableChangeDataFeed': 'true' });
    const v = (await ws.describeTable(dst)).version!;
    await ws.mergeChanges(
      dst,
      [
        {
          _change_type: 'update_postimage',
          _commit_version: 5,
          _commit_timestamp: 'x',
          id: 1,
          name: 'Ann',
          region: 'X',
        },
        { _change_type: 'delete', _commit_version: 5, _commit_timestamp: 'x', id: 3 },
        { _change_type: 'insert', _commit_version: 6, _commit_timestamp: 'x', id: 9, name: 'Ivy' },
      ],
      { keys: ['id'] },
    );
    const feed = await ws.tableChanges(dst, v + 1);
    expect(feed.map((c) => [c._change_type, c.id, c.region ?? null]).sort()).toEqual([
      ['delete', 3, 'AMER'],
      ['insert', 9, null],
      ['update_postimage', 1, 'X'],
      ['update_preimage', 1, 'EMEA'],
    ]);
  });

  it('commits nothing for an empty feed and refuses bad keys', async () => {
    const dst = await peopleTable(ws, 'm_bad');
    const v = (await ws.describeTable(dst)).version!;
    await expect(ws.mergeChanges(dst, [], { keys: ['id'] })).resolves.toEqual({
      numInsertedRows: 0,
      numUpdatedRows: 0,
      numDeletedRows: 0,
    });
    expect((await ws.describeTable(dst)).version).toBe(v);
    const row = { _change_type: 'insert' as const, _commit_version: 1, _commit_timestamp: 'x', id: null };
    await expect(ws.mergeChanges(dst, [row], { keys: ['id'] })).rejects.toThrow(/key column "id" is NULL/);
    await expect(ws.mergeChanges(dst, [row], { keys: ['nope'] })).rejects.toThrow(InvalidInputError);
    await expect(ws.mergeChanges(dst, [row], { keys: [] })).rejects.toThrow(/keys/);
  });
});
