import type { ByteBuffer } from './byte-buffer';
import { appJsonFormat, otelFormat } from './log-json';
import { nginxFormat } from './log-nginx';
import { syslogFormat } from './log-syslog';
import type { TimeText } from './log-time';
import type { LineRng } from './rng';

/**
 * The four log line formats, written for speed: every weighted choice is one draw from a table, every value is drawn
 * from a fast seeded integer source or a pool drawn per file, and a line is written as bytes — pre-encoded pieces
 * (constants, and per file its service, host, IPs and users; per day the date) copied a word at a time, with the
 * digits, hex and clock written in place. No string is made per line unless rows are kept. All text is ASCII
 * (constants, dotted IPs, `u<digits>` users, `[a-z]` hosts), so JSON values need no escaping beyond the
 * `JSON.stringify` of the pool values done once per file.
 */

/** What one line becomes in the direct table (filled only when rows are kept). */
export interface LineFacts {
  level: string;
  message: string;
  attrs: Record<string, string>;
  service: string;
}

export interface FileContext {
  rng: LineRng;
  service: string;
  host: string;
  ips: string[];
  users: string[];
  clock: TimeText;
  /** The facts of the last line, when rows are kept. */
  facts: LineFacts;
  /** Where lines go. */
  out: ByteBuffer;
}

/** Writes one line (ending in \n) to the file's buffer at the clock's instant (`clock.ts`, already set). */
export type LineWriter = (keep: boolean) => void;

/** A format: given a file's context, its line writer (which pre-encodes the file's pieces once). */
export type LineFormat = (c: FileContext) => LineWriter;

export const FORMATS: Record<string, LineFormat> = {
  nginx_access: nginxFormat,
  app_json: appJsonFormat,
  syslog: syslogFormat,
  otel_trace: otelFormat,
};
