import request from 'supertest';
import WebSocket from 'ws';
import { startServer, type RunningServer } from '../../api/server';
import type { Store } from '../../store/db';
import { createJob } from '../../store/jobs/jobs';
import { LogCapture, testAppDeps } from '../api/deps';
import { createTestStore } from '../helpers/db';
import { eventually } from '../helpers/eventually';

const KEY = 'sk-web-console-0123456789';
let store: Store;
let api: RunningServer;
const logs = new LogCapture();

beforeAll(async () => {
  store = await createTestStore();
  api = await startServer(testAppDeps({ store, env: { LAKEWARD_API_KEY: KEY }, logs }), {
    host: '127.0.0.1',
    port: 0,
  });
});
afterAll(async () => {
  await api?.close(500);
  await store?.close();
});

test('a WebSocket opened with ?api_key= is accepted and the key appears in no API log line', async () => {
  const jobId = 'clone-20261124-110000-ef56';
  await createJob(store.db, { jobId, jobType: 'clone', status: 'queued' });
  const first = await new Promise<Record<string, unknown>>((resolve, reject) => {
    const ws = new WebSocket(`${api.url.replace('http', 'ws')}/api/jobs/ws/${jobId}?api_key=${KEY}`);
    ws.on('message', (data) => {
      resolve(JSON.parse(data.toString()) as Record<string, unknown>);
      ws.close();
    });
    ws.on('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
    ws.on('error', reject);
  });
  expect(first).toMatchObject({ type: 'status', job_id: jobId });
  // Only WebSockets take the key in the URL: a plain request with it is refused, and logged without it.
  await request(api.url).get(`/api/jobs/${jobId}?api_key=${KEY}`).expect(401);

  const text = await eventually(
    () => {
      const t = logs.text();
      return t.includes('websocket opened') && t.includes(`/api/jobs/${jobId}"`) && t;
    },
    { what: 'the WebSocket and the request to be logged' },
  );
  expect(text).toContain(`"url":"/api/jobs/ws/${jobId}"`);
  expect(text).not.toContain(KEY);
  expect(text).not.toContain('api_key=');
});
