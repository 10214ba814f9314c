import type { TestWorkflowEnvironment } from '@temporalio/testing';
import request from 'supertest';
import WebSocket from 'ws';
import { startServer, type RunningServer } from '../../api/server';
import type { Store } from '../../store/db';
import { jobQueueWorkflowId } from '../../workflows/jobs/definitions';
import { createTestStore } from '../helpers/db';
import { connectTestEnv } from '../helpers/temporal';
import { jobAppDeps } from './api-app';
import { startJobWorker, type JobWorker } from './harness';

const KEY = 'ws-test-key';
let env: TestWorkflowEnvironment;
let store: Store;
let w: JobWorker;
let server: RunningServer;
beforeAll(async () => {
  env = await connectTestEnv();
  store = await createTestStore();
  w = await startJobWorker(env, store);
  server = await startServer(jobAppDeps(env, store, w.taskQueue, KEY), { host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await env.client.workflow
    .getHandle(jobQueueWorkflowId('clone', w.taskQueue))
    .terminate('test over')
    .catch(() => undefined);
  await server?.close(500);
  await w?.stop();
  await store?.close();
  await env?.teardown();
});

const auth = { Authorization: `Bearer ${KEY}` };
const wsUrl = (jobId: string, query = '') => `${server.url.replace('http', 'ws')}/api/clone/ws/${jobId}${query}`;

/** Connects, sends `ping`, and collects every message until the server closes the socket. */
function collect(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ texts: string[]; events: Record<string, unknown>[]; code: number }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers });
    const texts: string[] = [];
    const events: Record<string, unknown>[] = [];
    ws.on('open', () => ws.send('ping'));
    ws.on('message', (data) => {
      const text = data.toString();
      if (text === 'pong') texts.push(text);
      else events.push(JSON.parse(text) as Record<string, unknown>);
    });
    ws.on('close', (code) => resolve({ texts, events, code }));
    ws.on('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    ws.on('error', reject);
  });
}

test('the WebSocket answers ping with pong and streams the job events in order, then closes', async () => {
  const res = await request(server.url)
    .post('/api/clone')
    .set(auth)
    .send({ source_catalog: 'ws_src', destination_catalog: 'ws_dst' })
    .expect(200);
  const { texts, events, code } = await collect(wsUrl(res.body.job_id), auth);
  expect(texts).toEqual(['pong']);
  expect(code).toBe(1000);
  expect(events[0]).toMatchObject({ type: 'status', snapshot: true, job_id: res.body.job_id });
  const flow = events
    .slice(1)
    .filter((e) => e.type !== 'progress')
    .map((e) => (e.type === 'status' ? `status:${e.status}` : e.type));
  expect(flow).toEqual([
    'status:running',
    'table_started',
    'table_finished',
    'table_started',
    'table_finished',
    'schema_finished',
    'completed',
    'status:completed',
  ]);
  expect(events.at(-1)).toMatchObject({ final: true, job_id: res.body.job_id });
  const seqs = events
    .slice(1)
    .filter((e) => e.type !== 'progress')
    .map((e) => e.seq as number);
  expect([...seqs].sort((a, b) => a - b)).toEqual(seqs);

  // The same events come as NDJSON from the log stream, which ends with the final event.
  const logs = await request(server.url).get(`/api/clone/${res.body.job_id}/logs`).set(auth).expect(200);
  expect(logs.headers['content-type']).toMatch(/application\/x-ndjson/);
  const lines = logs.text
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { type: string; final?: boolean });
  expect(lines.map((l) => l.type)).toContain('table_finished');
  expect(lines.at(-1)).toMatchObject({ type: 'status', final: true });
});

test('the WebSocket checks the API key (header or ?api_key=) and refuses unknown jobs', async () => {
  const res = await request(server.url)
    .post('/api/clone')
    .set(auth)
    .send({ source_catalog: 'ws_key', destination_catalog: 'ws_dst' })
    .expect(200);
  await expect(collect(wsUrl(res.body.job_id))).rejects.toThrow('HTTP 401');
  await expect(collect(wsUrl(res.body.job_id, '?api_key=wrong'))).rejects.toThrow('HTTP 401');
  const viaQuery = await collect(wsUrl(res.body.job_id, `?api_key=${KEY}`));
  expect(viaQuery.events.at(-1)).toMatchObject({ final: true });
  await expect(collect(wsUrl('clone-20200101-000000-abcd'), auth)).rejects.toThrow('HTTP 404');
});
