import { DefaultLogger, Runtime, type LogLevel } from '@temporalio/worker';
import pino, { type Logger } from 'pino';
import type { Config } from '../config/load';

const TEMPORAL_LEVELS: Record<string, LogLevel> = {
  trace: 'TRACE',
  debug: 'DEBUG',
  info: 'WARN', // the SDK's INFO lines (worker state changes) are noise at the service's default level
  warn: 'WARN',
  error: 'ERROR',
  fatal: 'ERROR',
};

/** The process logger (JSON lines on stdout) with the Temporal SDK's own log routed into it. */
export function createProcessLogger(level: Config['log_level']): Logger {
  const logger = pino({ level, base: { service: 'lakeward' } });
  if (level !== 'silent') {
    const sdk = logger.child({ component: 'temporal-sdk' });
    Runtime.install({
      logger: new DefaultLogger(TEMPORAL_LEVELS[level] ?? 'WARN', (entry) => {
        const method = entry.level === 'ERROR' ? 'error' : entry.level === 'WARN' ? 'warn' : 'debug';
        sdk[method](entry.meta ?? {}, entry.message);
      }),
    });
  }
  return logger;
}
