import request from 'supertest';
import WebSocket from 'ws';
import { startServer, type RunningServer } from '../../api/server';
import { JobEventSchema } from '../../schemas/jobs';
import { faultyWorkspace } from '../clone/fixtures/faulty-workspace';
import { realStack, type RealStack } from './real-stack';

/** Every WebSocket event of a real multi-schema clone has the documented keys; progress knows its totals at once. */
let stack: RealStack;
let server: RunningServer;
beforeAll(async () => {
  stack = await realStack('clone-socket', { extraTables: 5 });
  server = await startServer(stack.appDeps(), { host: '127.0.0.1', port: 0 });
}, 120_000);
afterAll(async () => {
  await server?.close(500);
  await stack?.teardown();
});

function collect(path: string): Promise<Record<string, unknown>[]> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`${server.url.replace('http', 'ws')}${path}`);
    const events: Record<string, unknown>[] = [];
    ws.on('message', (data) => events.push(JSON.parse(data.toString()) as Record<string, unknown>));
    ws.on('close', () => resolve(events));
    ws.on('error', reject);
  });
}

test('every event of a clone has type, ts, message and job_id; the first progress event carries the final totals', async () => {
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  await stack.h.withWorker(
    async () => {
      const id = (
        await request(server.url)
          .post('/api/clone')
          .send({ source_catalog: 'prod', destination_catalog: 'prod_ws' })
          .expect(200)
      ).body.job_id as string;
      const [viaJobs, viaClone] = await Promise.all([collect(`/api/jobs/ws/${id}`), collect(`/api/clone/ws/${id}`)]);
      for (const events of [viaJobs, viaClone]) {
        for (const e of events) {
          const parsed = JobEventSchema.safeParse(e);
          expect({ event: e, issues: parsed.error?.issues ?? [] }).toEqual({ event: e, issues: [] });
          expect(e.job_id).toBe(id);
          expect(Number.isNaN(Date.parse(String(e.ts)))).toBe(false);
        }
        const types = new Set(events.map((e) => e.type));
        for (const t of ['status', 'progress', 'table_started', 'table_finished', 'schema_finished', 'completed'])
          expect(types).toContain(t);
        const finished = events.filter((e) => e.type === 'table_finished').length;
        const firstProgress = events.find((e) => e.type === 'progress') as {
          schemas: { total: number };
          tables: { total: number };
        };
        expect(firstProgress.schemas.total).toBe(2);
        expect(firstProgress.tables.total).toBe(finished);
        expect(events.at(-1)).toMatchObject({ type: 'status', status: 'completed', final: true });
      }
    },
    {
      // Slow copies, so the job is still running while the sockets follow it.
      wrap: (ws) =>
        faultyWorkspace(
          ws,
          () => undefined,
          new Map(),
          async (m) => (m === 'cloneTable' ? sleep(150) : 0),
        ),
    },
  );
}, 120_000);
