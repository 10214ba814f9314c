import { DefaultLogger, Runtime, type LogEntry, type LogLevel, type RuntimeOptions } from '@temporalio/worker';
import pino, { type DestinationStream, type Logger } from 'pino';
import type { Config } from '../config/load';
import { logContextMixin } from '../platform/observability/log-context';
import { prettyDestination } from './pretty-log';

const TEMPORAL_LEVELS: Record<string, LogLevel> = {
  trace: 'TRACE',
  debug: 'DEBUG',
  info: 'INFO',
  warn: 'WARN',
  error: 'ERROR',
  fatal: 'ERROR',
};

/** The SDK's own INFO lines (worker state changes) are noise at the service's default level; jobs' lines are not. */
const SDK_INTERNALS = new Set(['worker', 'core']);

export interface ProcessLoggerOptions {
  /** `pretty` for a person at a terminal (`lakeward dev`), `json` (default) for log shippers. */
  format?: 'json' | 'pretty';
  /** Where lines go (stdout by default). */
  destination?: DestinationStream;
  /** Runtime telemetry installed with the SDK logger (the SDK's Prometheus exporter, see workers/metrics-server.ts). */
  telemetry?: RuntimeOptions['telemetryOptions'];
}

/** The log format a configuration asks for: `log_format`, else pretty in `lakeward dev` on a terminal. */
export function logFormat(config: Pick<Config, 'log_format' | 'temporal'>): 'json' | 'pretty' {
  if (config.log_format) return config.log_format;
  return !config.temporal.address && process.stdout.isTTY ? 'pretty' : 'json';
}

/**
 * The process logger (JSON lines on stdout, or pretty ones) with the Temporal SDK's own log routed into it. Every
 * line of a job carries job_id, job_type, workflow_id (and trace_id when tracing is on): API lines and pino lines
 * inside an activity from the log context (the pino mixin), workflow lines (the SDK's logger sink) and activity
 * context lines from the job interceptors' log attributes.
 */
export function createProcessLogger(level: Config['log_level'], opts: ProcessLoggerOptions = {}): Logger {
  const destination = opts.destination ?? (opts.format === 'pretty' ? prettyDestination() : undefined);
  const options = { level, base: { service: 'lakeward' }, mixin: logContextMixin };
  const logger = destination ? pino(options, destination) : pino(options);
  if (level !== 'silent') routeSdkLogs(logger.child({ component: 'temporal-sdk' }), level, opts.telemetry);
  return logger;
}

let sdkTarget: { logger: Logger; verbose: boolean } | undefined;

/**
 * Sends the SDK's log (workflow `log`, activity `log`, worker and core lines) to `logger`. The Runtime logger is
 * installed once per process; a later stack in the same process (tests) only changes where its lines go.
 */
function routeSdkLogs(
  logger: Logger,
  level: Config['log_level'],
  telemetry?: RuntimeOptions['telemetryOptions'],
): void {
  const first = sdkTarget === undefined;
  sdkTarget = { logger, verbose: level === 'debug' || level === 'trace' };
  if (!first) return;
  try {
    Runtime.install({
      logger: new DefaultLogger(TEMPORAL_LEVELS[level] ?? 'INFO', writeSdkEntry),
      ...(telemetry ? { telemetryOptions: telemetry } : {}),
    });
  } catch (err) {
    logger.warn({ err }, 'the Temporal runtime was set up before the process logger; SDK lines keep their own logger');
  }
}

function writeSdkEntry(entry: LogEntry): void {
  if (!sdkTarget) return;
  const { sdkComponent, taskToken: _token, ...fields } = (entry.meta ?? {}) as Record<string, unknown>;
  const component = typeof sdkComponent === 'string' ? sdkComponent : 'temporal-sdk';
  const important = entry.level === 'WARN' || entry.level === 'ERROR';
  if (!important && !sdkTarget.verbose && SDK_INTERNALS.has(component)) return;
  const method =
    entry.level === 'ERROR' ? 'error' : entry.level === 'WARN' ? 'warn' : entry.level === 'INFO' ? 'info' : 'debug';
  sdkTarget.logger[method]({ ...fields, component }, entry.message);
}
