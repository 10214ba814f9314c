import { itemSources, type Rng } from './rng';

/** One generated log line as the direct table stores it (the specification's Log line row). */
export interface LogLine {
  log_id: string;
  log_type: string;
  service: string;
  ts: string;
  level: string;
  message: string;
  attrs: Record<string, string>;
}

export interface LogFileSpec {
  type: string;
  seed: number;
  asOf: string;
  daysBack: number;
  linesPerFile: number;
  index: number;
  /** Keep the structured lines (direct table); off, only the text is built. */
  keepLines?: boolean;
}

const SERVICES = ['checkout', 'catalog', 'payments', 'search', 'auth', 'inventory', 'shipping', 'notifications'];
const METHODS = [
  ['GET', 70],
  ['POST', 20],
  ['PUT', 6],
  ['DELETE', 4],
] as const;
const STATUSES = [
  [200, 80],
  [201, 5],
  [304, 4],
  [400, 3],
  [401, 2],
  [404, 4],
  [500, 1],
  [503, 1],
] as const;
const PATHS = [
  '/api/orders',
  '/api/orders/{id}',
  '/api/products',
  '/api/products/{id}',
  '/api/cart',
  '/login',
  '/static/app.js',
  '/health',
  '/api/search',
];
const AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
  'curl/8.5.0',
  'python-requests/2.32.3',
  'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0',
];
const LEVELS = [
  ['INFO', 80],
  ['DEBUG', 8],
  ['WARN', 8],
  ['ERROR', 4],
] as const;
const APP_MESSAGES = [
  'order placed',
  'payment authorized',
  'cache miss',
  'user signed in',
  'inventory reserved',
  'request completed',
  'retrying upstream call',
  'slow query',
  'token refreshed',
  'email queued',
];
/** RFC 5424 severities (numeric) with their names, weighted. */
const SEVERITIES = [
  [6, 'INFO', 75],
  [5, 'NOTICE', 8],
  [4, 'WARN', 9],
  [3, 'ERROR', 5],
  [7, 'DEBUG', 3],
] as const;
const SYSLOG_APPS = [
  ['sshd', 'AUTH', 4],
  ['cron', 'CRON', 9],
  ['kernel', 'KERN', 0],
  ['nginx', 'HTTP', 16],
  ['systemd', 'INIT', 3],
] as const;
const SYSLOG_MESSAGES: Record<string, string[]> = {
  sshd: ['Accepted publickey for deploy', 'Failed password for invalid user admin', 'Disconnected from user deploy'],
  cron: ['(root) CMD (run-parts /etc/cron.hourly)', '(app) CMD (/opt/app/bin/rotate)'],
  kernel: ['eth0: link up', 'TCP: request_sock_TCP: Possible SYN flooding on port 443'],
  nginx: ['worker process started', 'upstream timed out while reading response header'],
  systemd: ['Started Daily apt upgrade and clean activities.', 'Reloading.'],
};
const SPAN_NAMES = [
  'HTTP GET',
  'HTTP POST',
  'SELECT orders',
  'redis GET',
  'publish order.created',
  'grpc Payments/Authorize',
];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

function nginxTime(ms: number): string {
  const d = new Date(ms);
  return `${pad(d.getUTCDate())}/${MONTHS[d.getUTCMonth()]}/${d.getUTCFullYear()}:${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} +0000`;
}

interface FileContext {
  rng: Rng;
  service: string;
  host: string;
  ips: string[];
  users: string[];
  ids: string[];
}

/** Timestamps of a file: increasing through the days_back days before as_of (exclusive). */
function timeline(rng: Rng, spec: LogFileSpec): number[] {
  const end = Date.parse(`${spec.asOf}T00:00:00.000Z`);
  const span = spec.daysBack * 86_400_000;
  const start = end - span;
  const step = span / spec.linesPerFile;
  const out = new Array<number>(spec.linesPerFile);
  for (let i = 0; i < spec.linesPerFile; i++) out[i] = Math.floor(start + i * step + rng.float() * step);
  return out;
}

type Line = { text: string; level: string; message: string; attrs: Record<string, string>; service?: string };

function nginxLine(c: FileContext, ts: number, keep: boolean): Line {
  const method = c.rng.weighted(METHODS);
  const status = c.rng.weighted(STATUSES);
  const path = c.rng.pick(PATHS).replace('{id}', String(c.rng.int(1, 99_999)));
  const query = c.rng.int(0, 3) === 0 ? `?page=${c.rng.int(1, 20)}` : '';
  const bytes = status === 304 ? 0 : c.rng.int(120, 48_000);
  const ip = c.rng.pick(c.ips);
  const agent = c.rng.pick(AGENTS);
  const request = `${method} ${path}${query} HTTP/1.1`;
  const text = `${ip} - - [${nginxTime(ts)}] "${request}" ${status} ${bytes} "-" "${agent}"`;
  const level = status >= 500 ? 'ERROR' : status >= 400 ? 'WARN' : 'INFO';
  return {
    text,
    level,
    message: request,
    attrs: keep
      ? { remote_addr: ip, status: String(status), body_bytes_sent: String(bytes), user_agent: agent }
      : NO_ATTRS,
  };
}

function appJsonLine(c: FileContext, ts: number, keep: boolean): Line {
  const level = c.rng.weighted(LEVELS);
  const message = c.rng.pick(APP_MESSAGES);
  const traceId = c.rng.hex(32);
  const user = c.rng.pick(c.users);
  const duration = c.rng.int(1, 2_500);
  const text = JSON.stringify({
    ts: new Date(ts).toISOString(),
    level,
    service: c.service,
    message,
    trace_id: traceId,
    user_id: user,
    duration_ms: duration,
  });
  return {
    text,
    level,
    message,
    attrs: keep ? { trace_id: traceId, user_id: user, duration_ms: String(duration) } : NO_ATTRS,
  };
}

function syslogLine(c: FileContext, ts: number, keep: boolean): Line {
  const [app, msgid, facility] = c.rng.weighted(SYSLOG_APPS.map((a) => [a, 1] as const));
  const [severity, level] = c.rng.weighted(SEVERITIES.map(([n, name, w]) => [[n, name] as const, w] as const));
  const pri = facility * 8 + severity;
  const procId = c.rng.int(100, 65_000);
  const message = c.rng.pick(SYSLOG_MESSAGES[app]);
  const region = c.rng.pick(['eu-west-1', 'us-east-1', 'ap-south-1']);
  const text = `<${pri}>1 ${new Date(ts).toISOString()} ${c.host} ${app} ${procId} ${msgid} [meta@32473 region="${region}" env="prod"] ${message}`;
  return {
    text,
    level,
    message,
    service: app,
    attrs: keep ? { host: c.host, app_name: app, procid: String(procId), msgid, pri: String(pri), region } : NO_ATTRS,
  };
}

function otelLine(c: FileContext, ts: number, keep: boolean): Line {
  const traceId = c.rng.hex(32);
  const spanId = c.rng.hex(16);
  const parent = c.rng.int(0, 2) === 0 ? '' : c.rng.hex(16);
  const name = c.rng.pick(SPAN_NAMES);
  const durationUs = c.rng.int(50, 900_000);
  const error = c.rng.int(0, 49) === 0;
  const startNs = `${ts}000000`;
  const endNs = (BigInt(ts) * 1_000_000n + BigInt(durationUs) * 1_000n).toString();
  const text = JSON.stringify({
    trace_id: traceId,
    span_id: spanId,
    parent_span_id: parent,
    name,
    kind: parent ? 'SPAN_KIND_INTERNAL' : 'SPAN_KIND_SERVER',
    start_time_unix_nano: startNs,
    end_time_unix_nano: endNs,
    status: { code: error ? 'STATUS_CODE_ERROR' : 'STATUS_CODE_OK' },
    resource: { 'service.name': c.service, 'host.name': c.host },
    attributes: { 'http.route': c.rng.pick(PATHS), 'user.id': c.rng.pick(c.users) },
  });
  return {
    text,
    level: error ? 'ERROR' : 'INFO',
    message: name,
    attrs: keep
      ? { trace_id: traceId, span_id: spanId, parent_span_id: parent, duration_us: String(durationUs) }
      : NO_ATTRS,
  };
}

const NO_ATTRS: Record<string, string> = {};

const FORMATS: Record<string, (c: FileContext, ts: number, keep: boolean) => Line> = {
  nginx_access: nginxLine,
  app_json: appJsonLine,
  syslog: syslogLine,
  otel_trace: otelLine,
};

export const LOG_TYPES = Object.keys(FORMATS);

/** A growing byte buffer for one file's lines (each line becomes bytes at once, so no line text is kept). */
class LineBuffer {
  private buf: Buffer;
  private len = 0;
  constructor(sizeHint: number) {
    this.buf = Buffer.allocUnsafe(Math.max(4096, sizeHint));
  }
  push(line: string): void {
    const need = this.len + line.length * 3 + 1;
    if (need > this.buf.length) {
      const next = Buffer.allocUnsafe(Math.max(need, this.buf.length * 2));
      this.buf.copy(next, 0, 0, this.len);
      this.buf = next;
    }
    this.len += this.buf.write(line, this.len, 'utf8');
    this.buf[this.len++] = 10;
  }
  bytes(): Buffer {
    return this.buf.subarray(0, this.len);
  }
}

/** One log file's bytes (lines ending in \n) and, when asked, its lines as rows. Same spec → same bytes. */
export function buildLogFile(spec: LogFileSpec): { data: Buffer; lines: LogLine[] | null; service: string } {
  const format = FORMATS[spec.type];
  if (!format) throw new Error(`unknown log type ${spec.type}`);
  const { rng, faker } = itemSources(spec.seed, spec.asOf, 'logs', spec.type, spec.index);
  const c: FileContext = {
    rng,
    service: rng.pick(SERVICES),
    host: `${
      faker.word
        .noun()
        .toLowerCase()
        .replace(/[^a-z]/g, '') || 'host'
    }-${rng.int(1, 40)}`,
    ips: Array.from({ length: 24 }, () => faker.internet.ipv4()),
    users: Array.from({ length: 24 }, () => `u${faker.string.numeric(6)}`),
    ids: [],
  };
  const times = timeline(rng, spec);
  const keep = spec.keepLines === true;
  const out = new LineBuffer(spec.linesPerFile * 256);
  const lines: LogLine[] | null = keep ? [] : null;
  const idBase = `${spec.type}-s${spec.seed}-${String(spec.index + 1).padStart(5, '0')}`;
  for (let i = 0; i < spec.linesPerFile; i++) {
    const l = format(c, times[i], keep);
    out.push(l.text);
    lines?.push({
      log_id: `${idBase}-${String(i + 1).padStart(6, '0')}`,
      log_type: spec.type,
      service: l.service ?? c.service,
      ts: new Date(times[i]).toISOString(),
      level: l.level,
      message: l.message,
      attrs: l.attrs,
    });
  }
  return { data: out.bytes(), lines, service: c.service };
}
