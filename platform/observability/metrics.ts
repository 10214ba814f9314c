import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * Every Lakeward metric, defined once on ONE registry per process (the API's `/metrics` and the worker's metrics
 * server both render it). Names follow the Prometheus conventions: `lakeward_` prefix, `_total` for counters,
 * base units (`_seconds`, `_bytes`). Callers record through the small functions below, never through prom-client
 * directly, so a label set is written in one place. The process metrics (`process_*`, `nodejs_*`) are
 * prom-client's defaults, unprefixed as Prometheus exporters name them.
 */
export const registry = new Registry();
collectDefaultMetrics({ register: registry });

/** Latency buckets (seconds) for HTTP requests and warehouse statements: 5 ms to 60 s. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];
/** Queue wait buckets (seconds): 10 ms to 1 h. */
const WAIT_BUCKETS = [0.01, 0.1, 0.5, 1, 5, 15, 60, 300, 900, 3600];

export const httpRequests = new Counter({
  name: 'lakeward_http_requests_total',
  help: 'HTTP requests answered by the API, by method, route template (never the raw path) and status code.',
  labelNames: ['method', 'route', 'status'] as const,
  registers: [registry],
});

export const httpRequestDuration = new Histogram({
  name: 'lakeward_http_request_duration_seconds',
  help: 'Time from request to response end, by method, route template and status code.',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [registry],
});

export const jobsStarted = new Counter({
  name: 'lakeward_jobs_started_total',
  help: 'Jobs that left the queue and started running, by job type.',
  labelNames: ['job_type'] as const,
  registers: [registry],
});

export const jobsEnded = new Counter({
  name: 'lakeward_jobs_ended_total',
  help: 'Jobs whose end was recorded, by job type and final status (completed, failed, cancelled, ...).',
  labelNames: ['job_type', 'status'] as const,
  registers: [registry],
});

export const jobQueueDepth = new Gauge({
  name: 'lakeward_job_queue_depth',
  help: 'Jobs waiting in the queue (status queued in the store), by job type; read from the store at scrape time.',
  labelNames: ['job_type'] as const,
  registers: [registry],
  async collect() {
    if (!depthSource) return;
    // A store that does not answer leaves the last values: a scrape never fails for it.
    const depths = await depthSource().catch(() => undefined);
    if (depths) setQueueDepths(depths);
  },
});

export const jobQueueWait = new Histogram({
  name: 'lakeward_job_queue_wait_seconds',
  help: 'Time a job waited in the queue (started_at - created_at), observed when it starts, by job type.',
  labelNames: ['job_type'] as const,
  buckets: WAIT_BUCKETS,
  registers: [registry],
});

export const activityAttempts = new Counter({
  name: 'lakeward_activity_attempts_total',
  help: 'Activity executions started on this worker (every attempt, first or retry), by activity type.',
  labelNames: ['activity_type'] as const,
  registers: [registry],
});

export const activityRetries = new Counter({
  name: 'lakeward_activity_retries_total',
  help: 'Activity executions that were a retry (attempt > 1), by activity type.',
  labelNames: ['activity_type'] as const,
  registers: [registry],
});

export const activityFailures = new Counter({
  name: 'lakeward_activity_failures_total',
  help: 'Activity attempts that failed, by activity type and failure type (the ApplicationFailure type).',
  labelNames: ['activity_type', 'failure_type'] as const,
  registers: [registry],
});

export const cloneBytesCopied = new Counter({
  name: 'lakeward_clone_bytes_copied_total',
  help: 'Bytes of table data copied by clones (as reported by the workspace for each cloned table).',
  registers: [registry],
});

export const cloneTables = new Counter({
  name: 'lakeward_clone_tables_total',
  help: 'Tables a clone finished, by status (cloned, failed, skipped).',
  labelNames: ['status'] as const,
  registers: [registry],
});

export const warehouseStatements = new Counter({
  name: 'lakeward_warehouse_statements_total',
  help: 'Warehouse/platform statements issued, by adapter (local, databricks), statement kind and outcome (ok, error).',
  labelNames: ['adapter', 'kind', 'outcome'] as const,
  registers: [registry],
});

export const warehouseStatementDuration = new Histogram({
  name: 'lakeward_warehouse_statement_duration_seconds',
  help: 'Warehouse/platform statement latency, by adapter and statement kind.',
  labelNames: ['adapter', 'kind'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [registry],
});

export const cacheRequests = new Counter({
  name: 'lakeward_cache_requests_total',
  help: "Lookups in the API's metadata cache, by result (hit, miss).",
  labelNames: ['result'] as const,
  registers: [registry],
});

/** The Prometheus text exposition of every metric of this process. */
export function renderMetrics(): Promise<string> {
  return registry.metrics();
}

export const METRICS_CONTENT_TYPE = registry.contentType;

export function recordHttpRequest(method: string, route: string, status: number, seconds: number): void {
  const labels = { method, route, status: String(status) };
  httpRequests.inc(labels);
  httpRequestDuration.observe(labels, seconds);
}

export function recordJobStarted(jobType: string, queuedSeconds?: number): void {
  jobsStarted.inc({ job_type: jobType });
  if (queuedSeconds !== undefined && queuedSeconds >= 0) jobQueueWait.observe({ job_type: jobType }, queuedSeconds);
}

export function recordJobEnded(jobType: string, status: string): void {
  jobsEnded.inc({ job_type: jobType, status });
}

/**
 * Sets the queue depth gauge from a fresh count per job type. Types seen before and absent now read 0 (a
 * drained queue must show 0, not its last value).
 */
export function setQueueDepths(depths: Record<string, number>): void {
  for (const [jobType, n] of Object.entries(depths)) jobQueueDepth.set({ job_type: jobType }, n);
  for (const jobType of knownDepthTypes) if (!(jobType in depths)) jobQueueDepth.set({ job_type: jobType }, 0);
  for (const jobType of Object.keys(depths)) knownDepthTypes.add(jobType);
}
const knownDepthTypes = new Set<string>();

type DepthSource = () => Promise<Record<string, number>>;
let depthSource: DepthSource | undefined;

/**
 * Where the queue depth gauge reads its counts at scrape time (the API sets its store's count of queued rows
 * per job type). Returns a function that removes the source again, if it is still the current one.
 */
export function setQueueDepthSource(source: DepthSource): () => void {
  depthSource = source;
  return () => {
    if (depthSource === source) depthSource = undefined;
  };
}

export function recordActivityAttempt(activityType: string, attempt: number): void {
  activityAttempts.inc({ activity_type: activityType });
  if (attempt > 1) activityRetries.inc({ activity_type: activityType });
}

export function recordActivityFailure(activityType: string, failureType: string): void {
  activityFailures.inc({ activity_type: activityType, failure_type: failureType });
}

/** `count` tables a clone finished with `status` (cloned, failed, skipped). */
export function recordCloneTables(status: string, count: number): void {
  if (count > 0) cloneTables.inc({ status }, count);
}

export function recordCloneBytes(bytes: number): void {
  if (bytes > 0) cloneBytesCopied.inc(bytes);
}

export type StatementOutcome = 'ok' | 'error';

/** One warehouse statement: `kind` is the statement's kind (method name or SQL verb), never its text. */
export function recordWarehouseStatement(adapter: string, kind: string, outcome: StatementOutcome, seconds: number) {
  warehouseStatements.inc({ adapter, kind, outcome });
  warehouseStatementDuration.observe({ adapter, kind }, seconds);
}

export function recordCacheLookup(result: 'hit' | 'miss'): void {
  cacheRequests.inc({ result });
}
