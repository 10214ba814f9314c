import { readdirSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { createApp } from '../../api/app';
import { readRunLog } from '../../store/jobs/run-logs';
import { faultyWorkspace } from '../clone/fixtures/faulty-workspace';
import { eventually } from '../helpers/harness';
import { realStack, type RealStack } from './real-stack';
import type { Workspace } from '../../platform/port';

/**
 * Cancel at every moment of a real clone's life (the real queue, workflow and activities over a local
 * lakehouse): waiting in the queue, the instant it starts, during target preparation, during a table batch,
 * during a schema's finishing steps. Each time the job ends `cancelled` within seconds with its end recorded,
 * the next queued job starts and completes, and every destination table that exists reads whole.
 */
let stack: RealStack;
/** Which platform call is slow right now, and which slow calls the job has entered. */
const slowOn = new Map<string, number>();
const inside = new Set<string>();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const slow = async (method: string) => {
  const ms = slowOn.get(method);
  if (!ms) return;
  inside.add(method);
  await sleep(ms);
};
const wrap = (ws: Workspace) => faultyWorkspace(ws, () => undefined, new Map(), slow);

beforeAll(async () => {
  stack = await realStack('jobs-cancel', { extraTables: 6 });
}, 120_000);
afterAll(async () => {
  await stack?.teardown();
});

let appInstance: ReturnType<typeof createApp> | undefined;
const app = () => (appInstance ??= createApp(stack.appDeps()));
let n = 0;
const submit = async (extra: Record<string, unknown> = {}) =>
  (
    await request(app())
      .post('/api/clone')
      .send({ source_catalog: 'prod', destination_catalog: `dst_${++n}`, ...extra })
      .expect(200)
  ).body.job_id as string;
const job = async (id: string) => (await request(app()).get(`/api/clone/${id}`).expect(200)).body;
const events = async (id: string) => (await readRunLog(stack.h.store.db, id)).map((r) => r.data ?? {});

/** Every table of the destination that exists answers a full scan; no temp copy files are left in it. */
async function assertDestinationWhole(catalog: string): Promise<void> {
  const ws = stack.h.open(stack.root);
  try {
    const catalogs = (await ws.listCatalogs()).map((c) => c.name);
    if (!catalogs.includes(catalog)) return;
    for (const schema of await ws.listSchemas(catalog))
      for (const t of await ws.listTables(catalog, schema.name)) {
        const result = await ws.query(`SELECT count(*) AS n FROM \`${catalog}\`.\`${schema.name}\`.\`${t.name}\``);
        expect(result.rows).toHaveLength(1);
      }
  } finally {
    await ws.close?.();
  }
  const leftovers = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? leftovers(path.join(dir, e.name)) : /\.tmp-/.test(e.name) ? [e.name] : [],
    );
  expect(leftovers(stack.root)).toEqual([]);
}

type Moment = { name: string; slow?: [string, number]; when: (id: string) => Promise<boolean> };
const moments: Moment[] = [
  { name: 'at the instant it starts', when: async () => true },
  { name: 'during target preparation', slow: ['createCatalog', 1500], when: async () => inside.has('createCatalog') },
  {
    name: 'during a table batch',
    slow: ['cloneTable', 250],
    when: async (id) => (await events(id)).some((e) => e.event === 'table_finished'),
  },
  {
    name: 'during a schema finishing step',
    slow: ['listVolumes', 1500],
    when: async () => inside.has('listVolumes'),
  },
];

async function cancelAt(m: Moment): Promise<void> {
  slowOn.clear();
  inside.clear();
  if (m.slow) slowOn.set(m.slow[0], m.slow[1]);
  const id = await submit();
  const next = await submit();
  await eventually(() => m.when(id), { timeoutMs: 30_000, what: `job ${id} to reach: ${m.name}` });
  const t0 = Date.now();
  const answer = (await request(app()).delete(`/api/clone/${id}`).expect(200)).body;
  expect(['cancelling', 'cancelled']).toContain(answer.status);
  slowOn.clear();
  const ended = await eventually(
    async () => {
      const j = await job(id);
      return j.completed_at ? j : null;
    },
    { timeoutMs: 15_000, what: `cancelled job ${id} (${m.name}) to record its end` },
  );
  expect({ moment: m.name, status: ended.status }).toEqual({ moment: m.name, status: 'cancelled' });
  expect(Date.now() - t0).toBeLessThan(10_000);
  const after = await eventually(
    async () => {
      const j = await job(next);
      return j.completed_at ? j : null;
    },
    { timeoutMs: 30_000, what: `the next queued job ${next} to run after the cancel ${m.name}` },
  );
  expect(after.status).toBe('completed');
  await assertDestinationWhole(ended.destination_catalog);
}

test('a job waiting in the queue is cancelled before it starts and never runs', () =>
  stack.h.withWorker(
    async () => {
      slowOn.set('cloneTable', 200);
      const blocker = await submit();
      const waiting = await submit();
      expect((await job(waiting)).status).toBe('queued');
      expect((await request(app()).delete(`/api/clone/${waiting}`).expect(200)).body.status).toBe('cancelled');
      slowOn.clear();
      await eventually(async () => (await job(blocker)).completed_at, {
        timeoutMs: 30_000,
        what: 'the blocker to end',
      });
      expect((await events(waiting)).some((e) => e.event === 'table_started')).toBe(false);
    },
    { wrap },
  ));

for (const m of moments) {
  test(`cancel ${m.name}: ends cancelled, the queue moves on, nothing half-written (5 rounds)`, async () => {
    await stack.h.withWorker(
      async () => {
        for (let round = 0; round < 5; round++) await cancelAt(m);
      },
      { wrap },
    );
  }, 300_000);
}
