import type { Worker } from 'node:worker_threads';
import { InvalidInputError, NotFoundError, TransientError } from '../../platform/errors';
import { LocalThreadPool } from '../../platform/local/threads/pool';
import { onLocalThreads } from '../../platform/local/threads/workspace';
import { LocalWorkspace } from '../../platform/local/workspace';
import type { Workspace } from '../../platform/port';
import { eventually } from '../helpers/eventually';
import { peopleTable, ref, tempRoots, workspaceWithSchema } from './helpers';

const roots = tempRoots();
let direct: LocalWorkspace;
let pool: LocalThreadPool;
let threaded: Workspace;
let root: string;

beforeAll(async () => {
  root = roots.make();
  direct = await workspaceWithSchema(root);
  // Every call on the threads, however few (the default sends only a busy process's calls there).
  pool = new LocalThreadPool(2, { offloadCallsPerSecond: 0 });
  const opts = { root, user: 'alice' };
  threaded = onLocalThreads(new LocalWorkspace(opts), pool, opts);
});
afterAll(async () => {
  await pool.close();
  roots.cleanup();
});

/** The pool's threads, to stop one as a crash would. */
const threadsOf = (p: LocalThreadPool) => (p as unknown as { slots: ({ worker: Worker } | null)[] }).slots;

describe('local lakehouse threads', () => {
  it('answer metadata reads as the workspace itself does', async () => {
    const src = await peopleTable(direct, 'people', { team: 'core' });
    const sec = { type: 'TABLE' as const, ...src };
    await direct.setTags(sec, { tier: 'gold' });
    await direct.grant(sec, 'analysts', ['SELECT']);
    await direct.setComment(sec, 'everyone');
    await direct.setColumnTags(src, 'name', { pii: 'true' });
    expect(await threaded.describeTable(src)).toEqual(await direct.describeTable(src));
    expect(await threaded.getTags(sec)).toEqual({ tier: 'gold' });
    expect(await threaded.getGrants(sec)).toEqual(await direct.getGrants(sec));
    expect(await threaded.getColumnTags(src)).toEqual({ name: { pii: 'true' } });
    expect(await threaded.listTables('main', 'sales')).toEqual(await direct.listTables('main', 'sales'));
    expect(pool.counts).toEqual({ threads: 5, inline: 0 });
  });

  it('shallow-clone as the opening user, readable from the caller thread; a deep clone stays on it', async () => {
    const src = await peopleTable(direct, 'orders');
    const shallow = ref('orders_shallow');
    await threaded.cloneTable({ source: src, target: shallow, cloneType: 'SHALLOW' });
    const deep = ref('orders_deep');
    await threaded.cloneTable({ source: src, target: deep, cloneType: 'DEEP' });
    const rows = async (t: string) => (await direct.query(`SELECT * FROM main.sales.${t} ORDER BY id`)).rows;
    expect(await rows('orders_shallow')).toEqual(await rows('orders'));
    expect(await rows('orders_deep')).toEqual(await rows('orders'));
    expect(await direct.getOwner({ type: 'TABLE', ...shallow })).toBe('alice');
    expect((await direct.describeTable(shallow)).properties).toEqual(
      (await threaded.describeTable(shallow)).properties,
    );
  });

  it('keep the class and message of the errors a thread throws', async () => {
    const missing = ref('nowhere');
    const failure = (p: Promise<unknown>) =>
      p.then(
        () => new Error('expected a failure'),
        (e: unknown) => e as Error,
      );
    const mine = await failure(direct.describeTable(missing));
    const theirs = await failure(threaded.describeTable(missing));
    expect(theirs).toBeInstanceOf(NotFoundError);
    expect(theirs.message).toBe(mine.message);
    await expect(
      threaded.getTags({ type: 'TABLE', catalog: 'main', schema: 'sales', name: 'bad\u0000name' }),
    ).rejects.toBeInstanceOf(InvalidInputError);
  });

  it('write one object in the order the calls were made', async () => {
    const t = await peopleTable(direct, 'tagged');
    const sec = { type: 'TABLE' as const, ...t };
    await Promise.all(Array.from({ length: 20 }, (_, i) => threaded.setTags(sec, { step: String(i) })));
    expect(await direct.getTags(sec)).toEqual({ step: '19' });
  });

  it('fail the calls of a thread that dies as transient, and start a new thread for the next call', async () => {
    const t = await peopleTable(direct, 'survivor');
    for (const slot of threadsOf(pool)) void slot?.worker.terminate();
    // Made after the threads were told to stop: no thread answers them.
    const lost = await threaded.describeTable(t).catch((e: unknown) => e);
    expect(lost).toBeInstanceOf(TransientError);
    expect((lost as Error).message).toMatch(/local lakehouse thread exited/);
    expect(await threaded.describeTable(t)).toEqual(await direct.describeTable(t));
  });

  it('run the calls on the caller thread once the pool is closed', async () => {
    const own = new LocalThreadPool(1, { offloadCallsPerSecond: 0 });
    const opts = { root, user: 'alice' };
    const ws = onLocalThreads(new LocalWorkspace(opts), own, opts);
    const t = ref('people');
    const before = await ws.describeTable(t);
    await own.close();
    expect(await ws.describeTable(t)).toEqual(before);
  });

  it('run a few calls on the caller thread and go to the threads while calls are many', async () => {
    // The rate is measured from the calls made, so a slow machine (whose inline calls are slow) makes fewer: the
    // test sets a low rate (the default is 2,000 a second) that bursts of 100 calls exceed unless each call takes
    // 20 ms, and keeps bursting for up to 10 s until one burst is sent to the threads.
    const busy = new LocalThreadPool(2, { offloadCallsPerSecond: 50 });
    const opts = { root, user: 'alice' };
    const ws = onLocalThreads(new LocalWorkspace(opts), busy, opts);
    const t = ref('people');
    try {
      // One call after a quiet spell: no round trip to a thread.
      await new Promise((r) => setTimeout(r, 60));
      const one = await ws.describeTable(t);
      expect(busy.counts).toEqual({ threads: 0, inline: 1 });
      // Bursts of 100 calls at once: once the rate is seen, they go to the threads.
      await eventually(
        async () => {
          const all = await Promise.all(Array.from({ length: 100 }, () => ws.describeTable(t)));
          for (const d of all) expect(d).toEqual(one);
          return busy.counts.threads > 0;
        },
        { what: 'a burst of 100 describes sent to the threads', timeoutMs: 10_000, intervalMs: 0 },
      );
    } finally {
      await busy.close();
    }
  });
});
