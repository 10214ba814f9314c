import { readdirSync } from 'node:fs';
import path from 'node:path';
import { AlreadyExistsError, InvalidInputError, NotFoundError } from '../../platform/errors';
import type { LocalWorkspace } from '../../platform/local/workspace';
import type { Securable } from '../../platform/types';
import { peopleTable, ref, tempRoots, workspaceWithSchema } from './helpers';

const roots = tempRoots();
let ws: LocalWorkspace;
beforeAll(async () => {
  ws = await workspaceWithSchema(roots.make());
});
afterAll(() => roots.cleanup());

describe('local workspace objects and governance', () => {
  it('creates, lists and drops functions and volumes with their files', async () => {
    await ws.createFunction({
      ref: ref('double_it'),
      parameters: 'x INT',
      returnType: 'INT',
      body: 'x * 2',
      comment: 'twice',
    });
    expect(await ws.listFunctions('main', 'sales')).toEqual([
      {
        catalog: 'main',
        schema: 'sales',
        name: 'double_it',
        parameters: 'x INT',
        returnType: 'INT',
        body: 'x * 2',
        owner: 'alice',
        comment: 'twice',
      },
    ]);
    expect((await ws.query('SELECT main.sales.double_it(21) AS v')).rows).toEqual([{ v: 42 }]);
    await expect(
      ws.createFunction({ ref: ref('double_it'), parameters: 'x INT', returnType: 'INT', body: 'x' }),
    ).rejects.toThrow(AlreadyExistsError);
    await ws.createFunction({
      ref: ref('double_it'),
      parameters: 'x INT',
      returnType: 'INT',
      body: 'x * 3',
      replace: true,
    });
    expect((await ws.query('SELECT main.sales.double_it(2) AS v')).rows).toEqual([{ v: 6 }]);
    await ws.dropFunction(ref('double_it'));
    await expect(ws.query('SELECT main.sales.double_it(2)')).rejects.toThrow(/function main.sales.double_it not found/);

    const vol = ref('files');
    await ws.createVolume({ ref: vol, comment: 'landing' });
    await ws.writeVolumeFile(vol, 'a/b.csv', Buffer.from('x,y\n1,2\n'));
    await ws.writeVolumeFile(vol, 'top.txt', Buffer.from('hi'));
    expect(await ws.listVolumeFiles(vol)).toEqual([
      { path: 'a/b.csv', size: 8 },
      { path: 'top.txt', size: 2 },
    ]);
    expect((await ws.readVolumeFile(vol, 'top.txt')).toString()).toBe('hi');
    await expect(ws.readVolumeFile(vol, '../../etc/passwd')).rejects.toThrow(InvalidInputError);
    await expect(ws.readVolumeFile(vol, 'missing.txt')).rejects.toThrow(NotFoundError);
    expect((await ws.listVolumes('main', 'sales'))[0]).toMatchObject({
      name: 'files',
      volumeType: 'MANAGED',
      comment: 'landing',
    });
    await ws.dropVolume(vol);
    await expect(ws.listVolumeFiles(vol)).rejects.toThrow(/volume main.sales.files not found/);
  });

  it('round-trips owner, grants, tags and comments on every kind of securable', async () => {
    const t = await peopleTable(ws, 'gov');
    await ws.createView({ ref: ref('gov_v'), definition: 'SELECT id FROM main.sales.gov' });
    const securables: Securable[] = [
      { type: 'CATALOG', catalog: 'main' },
      { type: 'SCHEMA', catalog: 'main', schema: 'sales' },
      { type: 'TABLE', ...t },
      { type: 'VIEW', catalog: 'main', schema: 'sales', name: 'gov_v' },
    ];
    for (const s of securables) {
      await ws.setOwner(s, 'data_platform');
      await ws.grant(s, 'analysts', ['SELECT', 'use_schema']);
      await ws.grant(s, 'analysts', ['MODIFY']);
      await ws.grant(s, 'finance', ['SELECT']);
      await ws.revoke(s, 'analysts', ['MODIFY']);
      await ws.revoke(s, 'finance', ['SELECT']);
      await ws.setTags(s, { env: 'dev', tier: 'gold' });
      await ws.unsetTags(s, ['tier']);
      await ws.setComment(s, 'described');
      expect(await ws.getOwner(s)).toBe('data_platform');
      expect(await ws.getGrants(s)).toEqual([{ principal: 'analysts', privileges: ['SELECT', 'USE SCHEMA'] }]);
      expect(await ws.getTags(s)).toEqual({ env: 'dev' });
      expect(await ws.getComment(s)).toBe('described');
    }
    await expect(ws.grant(securables[0], 'x', ['DROP TABLE; --'])).rejects.toThrow(/invalid privilege/);
    await expect(ws.getOwner({ type: 'TABLE', catalog: 'main', schema: 'sales', name: 'nope' })).rejects.toThrow(
      NotFoundError,
    );
  });

  it('keeps column tags, column comments and properties per table', async () => {
    const t = await peopleTable(ws, 'cols');
    await ws.setColumnTags(t, 'ssn', { pii: 'ssn' });
    await ws.setColumnTags(t, 'ssn', { classification: 'restricted' });
    await ws.setColumnComment(t, 'name', 'Display name');
    await ws.setColumnComment(t, 'id', null);
    await ws.setProperties(t, { quality: 'gold', team: 'x' });
    await ws.unsetProperties(t, ['team']);
    expect(await ws.getColumnTags(t)).toEqual({ ssn: { pii: 'ssn', classification: 'restricted' } });
    expect(await ws.getColumnComments(t)).toEqual({ name: 'Display name' });
    expect(await ws.getProperties(t)).toEqual({ quality: 'gold' });
    expect((await ws.describeTable(t)).columns.find((c) => c.name === 'name')?.comment).toBe('Display name');
    await expect(ws.setColumnTags(t, 'nope', { a: 'b' })).rejects.toThrow(/column nope not found/);
    await expect(ws.setProperties(t, { 'delta.constraints.x': 'id > 0' })).rejects.toThrow(/addCheckConstraint/);
  });

  it('stores managed tables of a catalog with a managed location under that location', async () => {
    const storage = roots.make('lw-storage-');
    await ws.createCatalog({ name: 'lake', managedLocation: storage, comment: 'elsewhere' });
    expect(await ws.getCatalog('lake')).toMatchObject({
      name: 'lake',
      storageRoot: storage,
      comment: 'elsewhere',
      owner: 'alice',
    });
    await ws.createSchema({ catalog: 'lake', name: 'raw' });
    await ws.createTable({ ref: ref('events', 'raw', 'lake'), columns: [{ name: 'a', type: 'int' }] });
    expect((await ws.describeTable(ref('events', 'raw', 'lake'))).location).toBe(
      path.join(storage, '__lakeward_storage', 'lake', 'raw', 'tables', 'events'),
    );
    await expect(ws.createCatalog({ name: 'rel', managedLocation: 'relative/dir' })).rejects.toThrow(/absolute/);
    await ws.dropCatalog('lake', { cascade: true });
    expect(readdirSync(path.join(storage, '__lakeward_storage'))).toEqual([]);
  });

  it('drops a view but not a table through dropView', async () => {
    await ws.createView({ ref: ref('short_lived'), definition: 'SELECT 1 AS one' });
    expect((await ws.query('SELECT one FROM main.sales.short_lived')).rows).toEqual([{ one: 1 }]);
    await ws.dropView(ref('short_lived'));
    expect(await ws.listViews('main', 'sales')).not.toContainEqual(expect.objectContaining({ name: 'short_lived' }));
    await expect(ws.dropView(ref('short_lived'))).rejects.toThrow(NotFoundError);
    await expect(ws.dropView(ref('short_lived'), { ifExists: true })).resolves.toBeUndefined();
  });

  it('refuses to drop a non-empty schema unless cascading', async () => {
    await ws.createSchema({ catalog: 'main', name: 'scratch' });
    await ws.createTable({ ref: ref('t', 'scratch'), columns: [{ name: 'a', type: 'int' }] });
    await expect(ws.dropSchema('main', 'scratch')).rejects.toThrow(/not empty/);
    await ws.dropSchema('main', 'scratch', { cascade: true });
    await expect(ws.getSchema('main', 'scratch')).rejects.toThrow(NotFoundError);
    await expect(ws.dropView(ref('gov'))).rejects.toThrow(/is a table/);
  });
});
