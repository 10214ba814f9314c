import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { AlreadyExistsError, InvalidInputError, NotFoundError } from '../../platform/errors';
import { withFileLock } from '../../platform/local/metastore/lock';
import { MetaStore } from '../../platform/local/metastore/store';
import { LocalWorkspace } from '../../platform/local/workspace';
import { openWorkspace } from '../../platform';
import { ref, tempRoots, workspaceWithSchema } from './helpers';

const roots = tempRoots();
afterAll(() => roots.cleanup());

describe('local metastore', () => {
  it('keeps catalogs, schemas and governance across a reopen of the same root', async () => {
    const root = roots.make();
    const ws = await workspaceWithSchema(root);
    await ws.setTags({ type: 'SCHEMA', catalog: 'main', schema: 'sales' }, { domain: 'sales' });
    await ws.grant({ type: 'CATALOG', catalog: 'main' }, 'analysts', ['use_catalog']);

    const again = await openWorkspace({ kind: 'local', root });
    expect((await again.listCatalogs()).map((c) => c.name)).toEqual(['main']);
    expect(await again.getTags({ type: 'SCHEMA', catalog: 'main', schema: 'sales' })).toEqual({ domain: 'sales' });
    expect(await again.getGrants({ type: 'CATALOG', catalog: 'main' })).toEqual([
      { principal: 'analysts', privileges: ['USE CATALOG'] },
    ]);
    expect(again.id).toBe(path.resolve(root));
  });

  it('rejects invalid names before any file is written', async () => {
    const root = roots.make();
    const ws = new LocalWorkspace({ root });
    await expect(ws.createCatalog({ name: '../evil' })).rejects.toThrow(InvalidInputError);
    await expect(ws.createCatalog({ name: 'a.b' })).rejects.toThrow(/catalog name/);
    await expect(
      ws.createTable({ ref: { catalog: 'x', schema: 'y', name: 'bad name' }, columns: [{ name: 'a', type: 'int' }] }),
    ).rejects.toThrow(/table name/);
    expect(readdirSync(root)).toEqual([]);
  });

  it('names the missing level in NotFoundError and refuses duplicates', async () => {
    const ws = await workspaceWithSchema(roots.make());
    await expect(ws.getCatalog('nope')).rejects.toThrow(new NotFoundError('catalog nope not found'));
    await expect(ws.listTables('main', 'nope')).rejects.toThrow(/schema main.nope not found/);
    await expect(ws.describeTable(ref('ghost'))).rejects.toThrow(/main.sales.ghost not found/);
    await expect(ws.describeTable(ref('ghost', 'sales', 'other'))).rejects.toThrow(/catalog other not found/);
    await expect(ws.createSchema({ catalog: 'main', name: 'sales' })).rejects.toThrow(AlreadyExistsError);
    await expect(ws.createSchema({ catalog: 'main', name: 'sales', ifNotExists: true })).resolves.toBeUndefined();
  });

  it('treats names case-insensitively, as Unity Catalog does', async () => {
    const ws = await workspaceWithSchema(roots.make());
    await ws.createSchema({ catalog: 'MAIN', name: 'Finance' });
    expect((await ws.listSchemas('main')).map((s) => s.name)).toEqual(['finance', 'sales']);
  });

  it('serialises concurrent read-modify-writes of one object', async () => {
    const store = new MetaStore(roots.make());
    const file = path.join(store.root, 'counter.json');
    await Promise.all(
      Array.from({ length: 25 }, () => store.mutate<{ n: number }>(file, (cur) => ({ n: (cur?.n ?? 0) + 1 }))),
    );
    expect((await store.mutate<{ n: number }>(file, (cur) => cur))?.n).toBe(25);
  });

  it('breaks a lock left behind by a dead process', async () => {
    const root = roots.make();
    const lock = path.join(root, 'x.lock');
    writeFileSync(lock, '999999999 2020-01-01T00:00:00Z');
    await expect(withFileLock(lock, async () => 'ran', { timeoutMs: 5000 })).resolves.toBe('ran');
    expect(existsSync(lock)).toBe(false);
  });

  it('drops a catalog only when empty unless cascading, removing managed data', async () => {
    const root = roots.make();
    const ws = await workspaceWithSchema(root);
    await ws.createTable({ ref: ref('t'), columns: [{ name: 'a', type: 'int' }] });
    const location = (await ws.describeTable(ref('t'))).location!;
    await expect(ws.dropCatalog('main')).rejects.toThrow(/not empty/);
    await ws.dropCatalog('main', { cascade: true });
    expect(existsSync(location)).toBe(false);
    expect(await ws.listCatalogs()).toEqual([]);
    await expect(ws.dropCatalog('main', { ifExists: true })).resolves.toBeUndefined();
  });
});

describe('metastore lock', () => {
  it('keeps a long-held lock fresh so a waiter does not break it', async () => {
    const lock = path.join(roots.make(), 'long.lock');
    const order: string[] = [];
    const holder = withFileLock(
      lock,
      async () => {
        await new Promise((r) => setTimeout(r, 400));
        order.push('holder done');
      },
      { staleMs: 150 },
    );
    await new Promise((r) => setTimeout(r, 20));
    await withFileLock(lock, async () => void order.push('waiter ran'), { staleMs: 150 });
    await holder;
    expect(order).toEqual(['holder done', 'waiter ran']);
  });
});
