import { spawn } from 'node:child_process';
import path from 'node:path';
import { LocalWorkspace } from '../../platform/local/workspace';
import { writeConcurrently } from './fixtures/concurrent-writer';
import { tempRoots, workspaceWithSchema } from './helpers';

const roots = tempRoots();
afterAll(() => roots.cleanup());

const WRITER = path.join(__dirname, 'fixtures', 'concurrent-writer.ts');

/** Starts the child writer; `ready` resolves once it is about to write, `done` when it exits. */
function runWriter(root: string, who: string, count: number): { ready: Promise<void>; done: Promise<void> } {
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((r) => (markReady = r));
  const done = new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', WRITER, root, who, String(count)], {
      cwd: path.resolve(__dirname, '../..'),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (d) => String(d).includes('ready') && markReady());
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('exit', (code) => {
      markReady();
      if (code === 0) resolve();
      else reject(new Error(`writer ${who} exited ${code}: ${stderr}`));
    });
  });
  return { ready, done };
}

describe('two processes on one workspace root', () => {
  it('keeps every grant, tag and table written by both at the same time', async () => {
    const root = roots.make();
    await workspaceWithSchema(root);
    const count = 40;
    const child = runWriter(root, 'child', count);
    await child.ready;
    await Promise.all([child.done, writeConcurrently(root, 'parent', count)]);

    const ws = new LocalWorkspace({ root });
    const grants = await ws.getGrants({ type: 'CATALOG', catalog: 'main' });
    expect(grants).toHaveLength(2 * count);
    const tags = await ws.getTags({ type: 'SCHEMA', catalog: 'main', schema: 'sales' });
    expect(Object.keys(tags)).toHaveLength(2 * count);
    const tables = (await ws.listTables('main', 'sales')).map((t) => t.name).sort();
    expect(tables).toEqual(['child_t0', 'child_t1', 'child_t2', 'parent_t0', 'parent_t1', 'parent_t2']);
    expect((await ws.query('SELECT count(*) AS n FROM main.sales.child_t2')).rows).toEqual([{ n: 1 }]);
  }, 60_000);
});
