import request from 'supertest';
import { createApp } from '../../api/app';
import { MetadataCache } from '../../api/cache/metadata-cache';
import type { Store } from '../../store/db';
import { createJob } from '../../store/jobs/jobs';
import { startMetricsServer, type MetricsServer } from '../../workers/metrics-server';
import { testAppDeps } from '../api/deps';
import { createTestStore } from '../helpers/db';
import { newJobId } from '../helpers/job-input';
import { labelValues, sampleValue } from './prom-text';

let store: Store;
const KEY = 'metrics-test-key';
const auth = { Authorization: `Bearer ${KEY}` };

beforeAll(async () => {
  store = await createTestStore();
});
afterAll(async () => {
  await store?.close();
});

const appWith = (opts: { apiKey?: string; bind?: string } = {}) =>
  createApp(
    testAppDeps({
      store,
      flags: opts.apiKey ? { apiKey: opts.apiKey } : {},
      env: opts.bind ? { LAKEWARD_METRICS_BIND: opts.bind } : {},
    }),
  );

async function scrape(app: ReturnType<typeof appWith>): Promise<string> {
  const res = await request(app).get('/metrics').set(auth).expect(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.text;
}

test('GET /metrics obeys the API key: 401 naming the header without it, 200 in Prometheus text with it', async () => {
  const app = appWith({ apiKey: KEY });
  const denied = await request(app).get('/metrics').expect(401);
  expect(denied.body.error.details).toEqual([expect.objectContaining({ path: 'headers.authorization' })]);
  await request(app).get('/metrics').set({ Authorization: 'Bearer wrong' }).expect(401);
  const text = await scrape(app);
  expect(text).toContain('# TYPE lakeward_http_requests_total counter');
  expect(text).toContain('# TYPE lakeward_http_request_duration_seconds histogram');
  expect(text).toContain('# TYPE process_cpu_seconds_total counter');
  // The two refused scrapes were counted, under the route they did not reach.
  expect(sampleValue(text, 'lakeward_http_requests_total', { route: 'unmatched', status: '401' })).toBeGreaterThan(0);
});

test('requests are counted by route template and status, never by raw path', async () => {
  const app = appWith();
  const ids = [newJobId(), newJobId(), newJobId()];
  const labels = { method: 'GET', route: '/api/clone/:jobId', status: '404' };
  const before = sampleValue(await scrape(app), 'lakeward_http_requests_total', labels);
  for (const id of ids) await request(app).get(`/api/clone/${id}`).expect(404);
  await request(app).get('/api/health').expect(200);
  const text = await scrape(app);
  expect(sampleValue(text, 'lakeward_http_requests_total', labels) - before).toBe(3);
  expect(sampleValue(text, 'lakeward_http_request_duration_seconds_count', labels) - before).toBe(3);
  expect(sampleValue(text, 'lakeward_http_requests_total', { route: '/api/health', status: '200' })).toBeGreaterThan(0);
  for (const id of ids) expect(text).not.toContain(id);
  for (const route of labelValues(text, 'lakeward_http_requests_total', 'route')) {
    expect(route).toMatch(/^(unmatched|\/[a-z/_:A-Z-]*)$/);
  }
});

test('queue depth per job type is read from the store at scrape time; cache lookups count hits and misses', async () => {
  const app = appWith();
  const queued = [newJobId(), newJobId()];
  for (const jobId of queued) await createJob(store.db, { jobId, jobType: 'metricsq', status: 'queued' });
  expect(sampleValue(await scrape(app), 'lakeward_job_queue_depth', { job_type: 'metricsq' })).toBe(2);

  const cache = new MetadataCache(60);
  const before = await scrape(app);
  cache.get('catalogs');
  cache.set('catalogs', ['prod']);
  cache.get('catalogs');
  cache.get('catalogs');
  const after = await scrape(app);
  const delta = (result: string) =>
    sampleValue(after, 'lakeward_cache_requests_total', { result }) -
    sampleValue(before, 'lakeward_cache_requests_total', { result });
  expect({ hit: delta('hit'), miss: delta('miss') }).toEqual({ hit: 2, miss: 1 });
});

describe('with metrics.bind set', () => {
  let server: MetricsServer;
  afterAll(async () => server?.close());

  test('/metrics leaves the API port and is served on its own address without the key', async () => {
    const app = appWith({ apiKey: KEY, bind: '127.0.0.1:0' });
    await request(app).get('/metrics').set(auth).expect(404);
    server = await startMetricsServer({ host: '127.0.0.1', port: 0 });
    const res = await fetch(server.url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    expect(sampleValue(text, 'lakeward_http_requests_total', { route: 'unmatched', status: '404' })).toBeGreaterThan(0);
    expect((await fetch(server.url.replace('/metrics', '/other'))).status).toBe(404);
  });
});
