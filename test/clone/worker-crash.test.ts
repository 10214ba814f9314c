import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Client as PgClient } from 'pg';
import { openStore, type Store } from '../../store/db';
import { readRunLog } from '../../store/jobs/run-logs';
import { cloneCatalogWorkflow } from '../../workflows/clone';
import { seedMiniCatalog } from './fixtures/mini-catalog';
import { createHarness, eventually, type Harness } from '../helpers/harness';
import { startWorkerProcess } from '../helpers/worker-process';

/**
 * A worker killed with SIGKILL mid-clone: a new worker process finishes the job. Both processes and this
 * test share a real Postgres database (PGlite is single-process), created for this file and dropped after.
 */
const adminUrl = process.env.DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/test';
const dbName = `lakeward_t_${randomBytes(6).toString('hex')}`;
const dbUrl = Object.assign(new URL(adminUrl), { pathname: `/${dbName}` }).toString();
let h: Harness;
let store: Store;
const children: ChildProcess[] = [];

async function admin(sql: string): Promise<void> {
  const c = new PgClient({ connectionString: adminUrl });
  await c.connect();
  await c.query(sql).finally(() => c.end());
}

beforeAll(async () => {
  h = await createHarness('clone-crash');
  await admin(`CREATE DATABASE ${dbName}`);
  store = await openStore({ databaseUrl: dbUrl });
}, 60_000);
afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await store?.close();
  await admin(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
  await h?.teardown();
});

async function startWorker(): Promise<ChildProcess> {
  const child = await startWorkerProcess(h, { taskQueue: h.taskQueue, databaseUrl: dbUrl, cloneDelayMs: 150 });
  children.push(child);
  return child;
}

const finishedCount = async (jobId: string) =>
  (await readRunLog(store.db, jobId)).filter((r) => r.data?.event === 'table_finished').length;

test('a worker killed with SIGKILL mid-clone: a new worker completes the job, each table cloned at most once more', async () => {
  const root = h.newRoot();
  const ws = await h.open(root);
  await seedMiniCatalog(ws, 'prod', { extraTables: 50 });
  const input = h.jobInput(root, { parallel_tables: 2, max_workers: 2 });

  const first = await startWorker();
  const handle = await h.env.client.workflow.start(cloneCatalogWorkflow, {
    taskQueue: h.taskQueue,
    workflowId: input.jobId,
    args: [input],
  });
  await eventually(async () => (await finishedCount(input.jobId)) >= 5, { what: '5 table_finished events' });
  first.kill('SIGKILL');
  const atKill = await finishedCount(input.jobId);
  await new Promise((r) => first.once('exit', r));
  expect(atKill).toBeLessThan(40);

  await startWorker();
  const summary = await handle.result();
  expect(summary).toMatchObject({ status: 'completed', tables_cloned: 52, tables_failed: 0 });

  const names = [...(await ws.listTables('prod', 'sales')), ...(await ws.listTables('prod', 'hr'))].map((t) => ({
    schema: t.schema,
    name: t.name,
  }));
  expect(names).toHaveLength(52);
  const clonesPerTable: number[] = [];
  for (const t of names) {
    expect(await ws.tableChecksum({ catalog: 'dev', ...t })).toBe(await ws.tableChecksum({ catalog: 'prod', ...t }));
    const history = await ws.tableHistory({ catalog: 'dev', ...t });
    clonesPerTable.push(history.filter((e) => /CLONE/.test(e.operation)).length);
  }
  // A table in flight when the worker died is cloned again by its retry: one extra version, never more.
  expect(Math.max(...clonesPerTable)).toBeLessThanOrEqual(2);
  expect(clonesPerTable.filter((n) => n === 2).length).toBeLessThanOrEqual(4);
  const retries = (await readRunLog(store.db, input.jobId)).filter((r) => r.data?.event === 'retry');
  expect(retries.length).toBeGreaterThan(0);
}, 300_000);
