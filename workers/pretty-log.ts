import type { DestinationStream } from 'pino';

const LEVELS: Record<number, string> = { 10: 'TRACE', 20: 'DEBUG', 30: 'INFO', 40: 'WARN', 50: 'ERROR', 60: 'FATAL' };
/** Fields every line has, or that the pretty line shows in its own place. */
const SHOWN = new Set(['level', 'time', 'msg', 'pid', 'hostname', 'service', 'component', 'job_id']);

/**
 * One readable line per log record for a person at a terminal (`lakeward dev`):
 * `12:04:05.123 INFO  [activity] job clone-… table sales.orders cloned  table=sales.orders`.
 */
export function formatPretty(line: string): string {
  let rec: Record<string, unknown>;
  try {
    rec = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line.endsWith('\n') ? line : `${line}\n`;
  }
  const time = typeof rec.time === 'number' ? new Date(rec.time).toISOString().slice(11, 23) : '';
  const level = (LEVELS[rec.level as number] ?? String(rec.level)).padEnd(5);
  const parts = [time, level];
  if (rec.component) parts.push(`[${String(rec.component)}]`);
  if (rec.job_id) parts.push(`job ${String(rec.job_id)}`);
  parts.push(String(rec.msg ?? ''));
  const extra = Object.entries(rec)
    .filter(([k, v]) => !SHOWN.has(k) && v !== undefined)
    .map(([k, v]) => `${k}=${typeof v === 'string' ? v : JSON.stringify(v)}`);
  return `${parts.join(' ')}${extra.length ? `  ${extra.join(' ')}` : ''}\n`;
}

/** A pino destination writing pretty lines to stdout (pino-pretty is not a dependency; this is all dev needs). */
export function prettyDestination(out: NodeJS.WritableStream = process.stdout): DestinationStream {
  return { write: (line: string) => void out.write(formatPretty(line)) };
}
