import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { LocalWorkspace } from '../../platform/local/workspace';
import { seedMiniCatalog } from '../clone/fixtures/mini-catalog';
import { eventually } from '../helpers/eventually';
import { uniqueTaskQueue } from '../helpers/temporal';
import { startOtlpCollector, type OtlpCollector, type ReceivedSpan } from './otlp-collector';
import { startStackProcess, type StackProcess } from './stack-process';

/**
 * One deep clone through the API of a real `lakeward serve` process with tracing on (OTLP/HTTP to a local
 * collector stand-in): the trace and the worker's log tell the job's whole story under its id.
 */
let collector: OtlpCollector;
let stack: StackProcess;
let dataDir: string;
let jobId: string;
let lines: Record<string, unknown>[];

beforeAll(async () => {
  collector = await startOtlpCollector();
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'lw-telemetry-'));
  const ws = new LocalWorkspace({ root: path.join(dataDir, 'workspace'), user: 'lakeward' });
  await seedMiniCatalog(ws, 'prod');
  await ws.close();
  stack = await startStackProcess({
    LAKEWARD_DATA_DIR: dataDir,
    LAKEWARD_TASK_QUEUE: uniqueTaskQueue('telemetry'),
    LAKEWARD_LOG_LEVEL: 'info',
    OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
    OTEL_SERVICE_NAME: 'lakeward-test',
    OTEL_BSP_SCHEDULE_DELAY: '200',
  });
  const res = await fetch(`${stack.apiUrl}/api/clone`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ source_catalog: 'prod', destination_catalog: 'prod_copy', clone_type: 'DEEP' }),
  });
  expect(res.status).toBe(200);
  jobId = ((await res.json()) as { job_id: string }).job_id;
  await eventually(
    async () => {
      const job = (await (await fetch(`${stack.apiUrl}/api/clone/${jobId}`)).json()) as Record<string, unknown>;
      return job.status === 'completed' && job.completed_at;
    },
    { what: `clone job ${jobId} to complete`, timeoutMs: 120_000, intervalMs: 250 },
  );
  await stack.stop(); // flushes the spans still batched, and ends the log
  lines = stack.lines();
}, 240_000);

afterAll(async () => {
  await stack?.stop();
  await collector?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

const jobSpans = () => collector.spans.filter((s) => s.attributes['lakeward.job_id'] === jobId);

test('one clone is one trace: the API span, the workflow and activity spans and the warehouse statements', () => {
  const post = collector.spans.find((s) => s.name === 'POST /api/clone' && s.attributes['lakeward.job_id'] === jobId);
  expect(post).toBeDefined();
  const trace = collector.spans.filter((s) => s.traceId === post!.traceId);
  const names = trace.map((s) => s.name);
  expect(names).toContain('RunWorkflow:cloneCatalogWorkflow');
  expect(names.some((n) => n.startsWith('RunActivity:'))).toBe(true);
  expect(names).toContain('warehouse cloneTable');
  // Every span of the trace (API, client, queue update, workflows, activities, statements) carries the job.
  for (const s of trace) expect(s.attributes).toMatchObject({ 'lakeward.job_id': jobId, 'lakeward.job_type': 'clone' });
  expect(trace.filter((s) => s.attributes['lakeward.workflow_id']).length).toBeGreaterThan(10);
  // Outside that trace the job's id only marks the status reads that polled it, each its own short trace.
  const reads = new Set(collector.spans.filter((s) => s.name === 'GET /api/clone/:jobId').map((s) => s.traceId));
  const elsewhere = jobSpans().filter((s) => s.traceId !== post!.traceId);
  expect(elsewhere.filter((s) => !reads.has(s.traceId)).map((s) => s.name)).toEqual([]);
  // Parent links hold the trace together: every span's parent is in the trace, except the root (the API span).
  const ids = new Set(trace.map((s) => s.spanId));
  const roots = trace.filter((s: ReceivedSpan) => !s.parentSpanId || !ids.has(s.parentSpanId));
  expect(roots.map((s) => s.name)).toEqual(['POST /api/clone']);
});

test('a statement span names its kind and adapter, never its text', () => {
  const statements = jobSpans().filter((s) => s.name.startsWith('warehouse '));
  expect(statements.length).toBeGreaterThan(0);
  for (const s of statements) {
    expect(s.attributes['lakeward.adapter']).toBe('local');
    expect(s.name).toBe(`warehouse ${String(s.attributes['lakeward.statement.kind'])}`);
    expect(JSON.stringify(s.attributes)).not.toMatch(/prod_copy|orders|SELECT .* FROM/);
  }
});

test("the worker's log tells the job's story by its id: queued, running, each table, the end", () => {
  const story = lines.filter((l) => l.job_id === jobId);
  const messages = story.map((l) => `${String(l.event ?? '')}: ${String(l.msg)}`);
  expect(story.find((l) => l.event === 'queued')).toBeDefined();
  expect(story.find((l) => l.event === 'running')).toBeDefined();
  const tables = story.filter((l) => l.event === 'table_finished').map((l) => String(l.msg));
  expect(tables.some((m) => m.includes('orders'))).toBe(true);
  expect(story.find((l) => l.msg === 'job ended' && l.status === 'completed')).toBeDefined();
  expect(messages.findIndex((m) => m.startsWith('queued'))).toBeLessThan(
    messages.findIndex((m) => m.startsWith('running')),
  );
  // Every line of the job carries its fields and a trace id: the job's own trace for the lines of the request
  // that queued it and of the work (activities), each later read request's own trace for that request's line.
  const post = collector.spans.find((s) => s.name === 'POST /api/clone' && s.attributes['lakeward.job_id'] === jobId);
  for (const l of story) {
    expect(l).toMatchObject({ job_id: jobId, job_type: 'clone' });
    // The job's workflow, one of its schema workflows (`<job>--0--sales`), or the queue that runs it.
    expect(String(l.workflow_id)).toMatch(new RegExp(`^(${jobId}(--.+)?|queue-clone-.+)$`));
    expect(String(l.trace_id)).toMatch(/^[0-9a-f]{32}$/);
    if (!(l.req as { method?: string } | undefined)?.method?.startsWith('GET')) expect(l.trace_id).toBe(post!.traceId);
  }
});
