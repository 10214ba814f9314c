import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../../config/load';
import { prepareTemporalTelemetry, startMetricsServer, temporalExporterAddress } from '../../workers/metrics-server';
import { sampleValue } from './prom-text';

const listen = (server: Server) =>
  new Promise<number>((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port)),
  );
const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

test("the worker's /metrics appends the Temporal SDK exporter's series, and still answers when it is down", async () => {
  const sdk = createServer((_req, res) =>
    res.end('# TYPE temporal_stand_in_total counter\ntemporal_stand_in_total 3\n'),
  );
  const sdkPort = await listen(sdk);
  const metrics = await startMetricsServer({ host: '127.0.0.1', port: 0, sdkAddress: `127.0.0.1:${sdkPort}` });
  try {
    const text = await (await fetch(metrics.url)).text();
    expect(text).toContain('# TYPE lakeward_jobs_started_total counter');
    expect(sampleValue(text, 'temporal_stand_in_total')).toBe(3);
    await close(sdk);
    const res = await fetch(metrics.url);
    expect(res.status).toBe(200);
    const without = await res.text();
    expect(without).toContain('# TYPE lakeward_jobs_started_total counter');
    expect(without).toMatch(/^# Temporal SDK metrics unavailable: /m);
    expect(without).not.toContain('temporal_stand_in_total');
  } finally {
    await metrics.close();
  }
});

test('a busy worker.temporal_metrics_port gives a warning naming the key and no SDK exporter, never a failed start', async () => {
  const busy = createServer();
  const port = await listen(busy);
  try {
    const config = loadConfig({ env: { LAKEWARD_TEMPORAL_METRICS_PORT: String(port) }, flags: {} });
    const prepared = await prepareTemporalTelemetry(config);
    expect(prepared.telemetry).toBeUndefined();
    expect(prepared.warning).toMatch(/^worker\.temporal_metrics_port: 127\.0\.0\.1:\d+ is in use/);
    expect(temporalExporterAddress()).toBeNull();
  } finally {
    await close(busy);
  }
  const free = loadConfig({ env: { LAKEWARD_TEMPORAL_METRICS_PORT: String(port) }, flags: {} });
  const prepared = await prepareTemporalTelemetry(free);
  expect(prepared.telemetry).toMatchObject({ metrics: { prometheus: { bindAddress: `127.0.0.1:${port}` } } });
  expect(temporalExporterAddress()).toBe(`127.0.0.1:${port}`);
});
