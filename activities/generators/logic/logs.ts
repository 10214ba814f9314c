import { ByteBuffer } from './byte-buffer';
import { generatedAt } from './columns';
import { FORMATS, type FileContext, type LineFacts } from './log-lines';
import { TimeText } from './log-time';
import { itemSources, LineRng } from './rng';

/** One generated log line as the direct table stores it (the specification's Log line row). */
export type LogLine = {
  log_id: string;
  log_type: string;
  service: string;
  ts: string;
  level: string;
  message: string;
  attrs: Record<string, string>;
  /** as_of's midnight, as on every generated row. */
  generated_at: string;
};

export interface LogFileSpec {
  type: string;
  seed: number;
  asOf: string;
  daysBack: number;
  linesPerFile: number;
  index: number;
  /** Keep the structured lines (direct table); off, only the text is built. */
  keepLines?: boolean;
  /** A buffer whose bytes are no longer needed, to build the file in (saves allocating one per file). */
  reuse?: Buffer;
  /**
   * Stream the bytes instead: the file is built in a window of `SINK_WINDOW` bytes handed here whenever it fills
   * (and at the end), while the bytes are still in the processor's cache; `data` is then empty.
   */
  sink?: (bytes: Buffer) => void;
}

/** The window of a streamed build: small enough to stay in a core's cache between building and writing. */
export const SINK_WINDOW = 256 * 1024;

const SERVICES = ['checkout', 'catalog', 'payments', 'search', 'auth', 'inventory', 'shipping', 'notifications'];

export const LOG_TYPES = Object.keys(FORMATS);

/** Mean bytes per line of each type, to size a file's buffer once. */
const BYTES_PER_LINE: Record<string, number> = { nginx_access: 170, app_json: 190, syslog: 150, otel_trace: 420 };

/**
 * One log file's bytes (lines ending in \n) and, when asked, its lines as rows. Same spec → same bytes. `data` is a
 * view of the start of `buffer`, which a later call may take as `reuse` once `data` is no longer needed.
 */
export function buildLogFile(spec: LogFileSpec): {
  data: Buffer;
  /** Bytes of the whole file (streamed ones included). */
  bytes: number;
  buffer: Buffer;
  lines: LogLine[] | null;
  service: string;
} {
  const format = FORMATS[spec.type];
  if (!format) throw new Error(`unknown log type ${spec.type}`);
  const { rng, faker } = itemSources(spec.seed, spec.asOf, 'logs', spec.type, spec.index);
  const service = rng.pick(SERVICES);
  const host = `${
    faker.word
      .noun()
      .toLowerCase()
      .replace(/[^a-z]/g, '') || 'host'
  }-${rng.int(1, 40)}`;
  const ips = Array.from({ length: 24 }, () => faker.internet.ipv4());
  const users = Array.from({ length: 24 }, () => `u${faker.string.numeric(6)}`);
  const facts: LineFacts = { level: '', message: '', attrs: {}, service };
  const c: FileContext = {
    rng: new LineRng(rng),
    service,
    host,
    ips,
    users,
    clock: new TimeText(),
    facts,
    out: spec.sink
      ? new ByteBuffer(SINK_WINDOW, spec.reuse, spec.sink)
      : new ByteBuffer(Math.ceil(spec.linesPerFile * (BYTES_PER_LINE[spec.type] ?? 256) * 1.1), spec.reuse),
  };
  const line = format(c);
  const n = spec.linesPerFile;
  const keep = spec.keepLines === true;
  const lines: LogLine[] | null = keep ? new Array<LogLine>(n) : null;
  const at = generatedAt(spec.asOf);
  const idBase = `${spec.type}-s${spec.seed}-${String(spec.index + 1).padStart(5, '0')}-`;
  // Timestamps rise through the days_back days before as_of (exclusive): one per step, at a seeded point inside it.
  const end = Date.parse(`${spec.asOf}T00:00:00.000Z`);
  const span = spec.daysBack * 86_400_000;
  const start = end - span;
  const step = span / n;
  for (let i = 0; i < n; i++) {
    c.clock.set(Math.floor(start + i * step + c.rng.float() * step));
    line(keep);
    if (lines) {
      lines[i] = {
        log_id: `${idBase}${String(i + 1).padStart(6, '0')}`,
        log_type: spec.type,
        service: facts.service,
        ts: c.clock.iso(),
        level: facts.level,
        message: facts.message,
        attrs: facts.attrs,
        generated_at: at,
      };
    }
  }
  const data = c.out.done();
  return { data, bytes: c.out.flushed + data.length, buffer: c.out.buf, lines, service };
}
