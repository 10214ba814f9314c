import { InvalidInputError, TransientError } from '../../platform/errors';
import type { Workspace } from '../../platform/port';
import type { CloneTableOptions, TableRef } from '../../platform/types';
import { faultyWorkspace } from './fixtures/faulty-workspace';
import { createHarness, type Harness } from '../helpers/harness';

let h: Harness;
beforeAll(async () => {
  h = await createHarness('clone-batch-pipeline');
}, 60_000);
afterAll(async () => h?.teardown());

const TABLES = ['t0', 't1', 't2', 't3'];

/** One schema of four small tables: one batch, so one activity copies them in order. */
async function seed(ws: Workspace): Promise<void> {
  await ws.createCatalog({ name: 'prod' });
  await ws.createSchema({ catalog: 'prod', name: 's' });
  for (const [i, name] of TABLES.entries())
    await ws.createTableAs({
      ref: { catalog: 'prod', schema: 's', name },
      query: `SELECT range + ${i} AS k FROM range(10)`,
    });
}

const refName = (args: unknown[]) => (args[0] as TableRef).name;
const cloneTarget = (args: unknown[]) => (args[0] as CloneTableOptions).target.name;

/** Bounded wait that says what it waited for. */
async function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms waiting for ${what}`)), ms);
  });
  try {
    return await Promise.race([p, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

test("a table's metadata is copied while the next table's data is copied, and every table ends cloned", async () => {
  const root = h.newRoot();
  const ws = await h.open(root);
  await seed(ws);
  let nextCopyStarted!: () => void;
  const t1Copying = new Promise<void>((resolve) => (nextCopyStarted = resolve));
  const seenWhileHeld: string[] = [];
  const input = h.jobInput(root, { clone_type: 'DEEP' });
  const summary = await h.withWorker(() => h.run(input), {
    wrap: (w) =>
      faultyWorkspace(
        w,
        () => undefined,
        new Map(),
        async (method, args) => {
          if (method === 'cloneTable' && cloneTarget(args) === 't1') nextCopyStarted();
          // t0's grants on the destination wait until t1's copy has begun: a batch that finished t0 before
          // starting t1 would never get there (and the bounded wait fails the job naming it).
          if (method === 'getGrants' && refName(args) === 't0' && (args[0] as TableRef).catalog === 'dev') {
            await within(t1Copying, 20_000, "t1's copy to start while t0 finishes");
            seenWhileHeld.push('t0 grants after t1 copy started');
          }
        },
      ),
  });
  expect(seenWhileHeld).toEqual(['t0 grants after t1 copy started']);
  expect(summary).toMatchObject({ status: 'completed', tables_cloned: 4, tables_failed: 0 });
  for (const name of TABLES)
    expect(await ws.tableChecksum({ catalog: 'dev', schema: 's', name })).toBe(
      await ws.tableChecksum({ catalog: 'prod', schema: 's', name }),
    );
  // Each table's run log still says started before finished.
  const events = await h.events(input.jobId);
  for (const name of TABLES) {
    const started = events.findIndex((e) => e.event === 'table_started' && e.table === name);
    const finished = events.findIndex((e) => e.event === 'table_finished' && e.table === name);
    expect(started).toBeGreaterThanOrEqual(0);
    expect(finished).toBeGreaterThan(started);
  }
});

test('a logical failure while a table finishes fails that table only; a transient one retries the batch', async () => {
  const root = h.newRoot();
  const ws = await h.open(root);
  await seed(ws);
  let transientThrown = 0;
  const input = h.jobInput(root, { clone_type: 'DEEP' });
  const summary = await h.withWorker(() => h.run(input), {
    wrap: (w) =>
      faultyWorkspace(w, (method, args) => {
        const dst = (args[0] as TableRef | undefined)?.catalog === 'dev';
        // t1: its row filter cannot be read on the destination (logical: fails t1 at once).
        if (method === 'getRowFilter' && dst && refName(args) === 't1')
          return new InvalidInputError('[ROW_FILTER] cannot read the row filter of t1');
        // t2: one transient failure while it finishes (the batch is retried; finished tables are skipped).
        if (method === 'getColumnMasks' && dst && refName(args) === 't2' && transientThrown++ === 0)
          return new TransientError('metastore busy (HTTP 503)');
      }),
  });
  expect(transientThrown).toBe(2);
  expect(summary).toMatchObject({ status: 'failed', tables_cloned: 3, tables_failed: 1 });
  const events = await h.events(input.jobId);
  const finished = (name: string) => events.filter((e) => e.event === 'table_finished' && e.table === name);
  expect(finished('t1').at(-1)).toMatchObject({
    status: 'failed',
    error: expect.stringContaining('cannot read the row filter of t1'),
  });
  // t0 finished on the first attempt and was not redone; t2 finished on the retry.
  expect(finished('t0')).toEqual([expect.objectContaining({ status: 'cloned', attempt: 1 })]);
  expect(finished('t2')).toEqual([expect.objectContaining({ status: 'cloned', attempt: 2 })]);
  expect(finished('t3')).toEqual([expect.objectContaining({ status: 'cloned' })]);
});
