import { existsSync } from 'node:fs';
import path from 'node:path';
import type { LocalWorkspace } from '../../platform/local/workspace';
import { peopleTable, ref, tempRoots, workspaceWithSchema } from './helpers';

const roots = tempRoots();
let ws: LocalWorkspace;
beforeAll(async () => {
  ws = await workspaceWithSchema(roots.make());
  await ws.createSchema({ catalog: 'main', name: 'dev' });
});
afterAll(() => roots.cleanup());

const ids = async (table: string) => (await ws.query(`SELECT id FROM ${table} ORDER BY id`)).rows.map((r) => r.id);

describe('local workspace clones', () => {
  it('deep clones at a version with extra properties, without tags, grants or comments', async () => {
    const src = await peopleTable(ws, 'deep_src', { team: 'core' });
    await ws.setTags({ type: 'TABLE', ...src }, { tier: 'gold' });
    await ws.grant({ type: 'TABLE', ...src }, 'analysts', ['SELECT']);
    await ws.deleteWhere(src, 'id = 1');
    const target = ref('deep_copy', 'dev');
    const m = await ws.cloneTable({
      source: src,
      target,
      cloneType: 'DEEP',
      version: 1,
      properties: { cloned: 'yes' },
    });
    expect(m.numCopiedFiles).toBe(1);
    expect(m.copiedFilesSize).toBeGreaterThan(0);
    expect(await ids('main.dev.deep_copy')).toEqual([1, 2, 3]);
    const d = await ws.describeTable(target);
    expect(d).toMatchObject({ tableType: 'MANAGED', format: 'DELTA', comment: null });
    expect(d.properties).toMatchObject({ team: 'core', cloned: 'yes' });
    expect(await ws.getTags({ type: 'TABLE', ...target })).toEqual({});
    expect(await ws.getGrants({ type: 'TABLE', ...target })).toEqual([]);
    expect(await ws.tableChecksum(target)).toBe(await ws.tableChecksum(src, { version: 1 }));
  });

  it('shallow clones reference the source files and survive a vacuum of the source', async () => {
    const src = await peopleTable(ws, 'shallow_src');
    const target = ref('shallow_copy', 'dev');
    const m = await ws.cloneTable({ source: src, target, cloneType: 'SHALLOW' });
    expect(m.numCopiedFiles).toBe(0);
    // The source rewrites its only file, so the clone's file is no longer in the source's snapshot.
    await ws.deleteWhere(src, 'id = 2');
    const vac = await ws.vacuumTable(src, { retentionHours: 0 });
    expect(vac.files).toHaveLength(0);
    expect(await ids('main.dev.shallow_copy')).toEqual([1, 2, 3]);
    // Writes to the clone stay in the clone.
    await ws.insertRows(target, [{ id: 7 }]);
    expect(await ids('main.dev.shallow_copy')).toEqual([1, 2, 3, 7]);
    expect(await ids('main.sales.shallow_src')).toEqual([1, 3]);
    // Once the clone is gone, nothing protects the old file any more.
    await ws.dropTable(target);
    expect((await ws.vacuumTable(src, { retentionHours: 0, dryRun: true })).files).toHaveLength(1);
  });

  it('replaces by default, keeps an existing target with replace false, and clones to an external location', async () => {
    const src = await peopleTable(ws, 'replace_src');
    const target = ref('replace_copy', 'dev');
    await ws.cloneTable({ source: src, target, cloneType: 'DEEP' });
    await ws.insertRows(src, [{ id: 4 }]);
    const skipped = await ws.cloneTable({ source: src, target, cloneType: 'DEEP', replace: false });
    expect(skipped.numCopiedFiles).toBe(0);
    expect(await ids('main.dev.replace_copy')).toEqual([1, 2, 3]);
    await ws.cloneTable({ source: src, target, cloneType: 'DEEP' });
    expect(await ids('main.dev.replace_copy')).toEqual([1, 2, 3, 4]);
    const location = path.join(roots.make('lw-ext-'), 'ext_copy');
    await ws.cloneTable({ source: src, target: ref('ext_copy', 'dev'), cloneType: 'DEEP', location });
    const d = await ws.describeTable(ref('ext_copy', 'dev'));
    expect([d.tableType, d.location]).toEqual(['EXTERNAL', location]);
    await ws.dropTable(ref('ext_copy', 'dev'));
    expect(existsSync(location)).toBe(true);
  });

  it('rejects a clone onto itself and a bad clone type', async () => {
    const src = await peopleTable(ws, 'self_src');
    await expect(ws.cloneTable({ source: src, target: src, cloneType: 'DEEP' })).rejects.toThrow(/must differ/);
    await expect(ws.cloneTable({ source: src, target: ref('x', 'dev'), cloneType: 'FAST' as never })).rejects.toThrow(
      /cloneType/,
    );
    await expect(
      ws.cloneTable({ source: src, target: ref('x', 'dev'), cloneType: 'DEEP', version: 1, timestamp: '2024-01-01' }),
    ).rejects.toThrow(/either version or timestamp/);
  });
});
