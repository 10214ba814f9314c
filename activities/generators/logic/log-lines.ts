import { ascii, type ByteBuffer } from './byte-buffer';
import { type NginxHeads, type NginxPieces, writeNginxLine } from './nginx-bytes';
import type { TimeText } from './log-time';
import { type LineRng, weightTable } from './rng';

/**
 * The four log line formats, written for speed: every weighted choice is one draw from a table, every value is drawn
 * from a fast seeded integer source or a pool drawn per file, and timestamps are formatted from a cached day prefix.
 * All text here is ASCII (constants, dotted IPs, `u<digits>` users, `[a-z]` hosts), so JSON values need no escaping
 * beyond `JSON.stringify` of the pool values done once per file.
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
  /** JSON-quoted service and host, and the users pool JSON-quoted. */
  serviceJson: string;
  hostJson: string;
  usersJson: string[];
  /** The facts of the last line, when rows are kept. */
  facts: LineFacts;
  /** Where lines go. */
  out: ByteBuffer;
  /** The nginx byte writer's per-file heads and its reused pieces. */
  nginx: { heads: NginxHeads; pieces: NginxPieces };
}

/** Writes one line (ending in \n) at epoch ms `ts` to `c.out`, the clock already set to it. */
export type LineFormat = (c: FileContext, keep: boolean, ts: number) => void;

const METHODS = weightTable([
  ['GET', 70],
  ['POST', 20],
  ['PUT', 6],
  ['DELETE', 4],
]);
const STATUSES = weightTable([
  [200, 80],
  [201, 5],
  [304, 4],
  [400, 3],
  [401, 2],
  [404, 4],
  [500, 1],
  [503, 1],
]);
export const PATHS = [
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
/** Each path split at its `{id}` (the second part is null when it has none). */
const PATH_PARTS = PATHS.map((p) =>
  p.includes('{id}') ? ([p.split('{id}')[0], p.split('{id}')[1]] as const) : ([p, null] as const),
);
const PATHS_JSON = PATHS.map((p) => JSON.stringify(p));
const AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
  'curl/8.5.0',
  'python-requests/2.32.3',
  'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0',
];
/** The end of an nginx line after the byte count, per agent. */
const AGENT_TAILS = AGENTS.map((a) => ` "-" "${a}"\n`);

/** Pre-encoded pieces of an nginx line, aligned with the weight tables they are drawn from. */
/** ` +0000] "GET /api/orders` per method and path (up to the path's id): index method slot × paths + path. */
const METHOD_NAMES = [...new Set(METHODS)];
const METHOD_SLOT = METHODS.map((m) => METHOD_NAMES.indexOf(m));
const REQUEST_HEAD_BYTES = METHOD_NAMES.flatMap((m) => PATH_PARTS.map(([head]) => ascii(` +0000] "${m} ${head}`)));
const PATH_TAIL_BYTES = PATH_PARTS.map(([, tail]) => (tail === null ? null : ascii(tail)));
const PROTOCOL_STATUS_BYTES = (() => {
  const unique = new Map([...new Set(STATUSES)].map((s) => [s, ascii(` HTTP/1.1" ${s} `)]));
  return STATUSES.map((s) => unique.get(s)!);
})();
const AGENT_TAIL_BYTES = AGENT_TAILS.map(ascii);

function nginxLine(c: FileContext, keep: boolean): void {
  const r = c.rng;
  const methodIndex = r.below(METHODS.length);
  const statusIndex = r.below(STATUSES.length);
  const status = STATUSES[statusIndex];
  const pathIndex = r.below(PATH_PARTS.length);
  const tail = PATH_PARTS[pathIndex][1];
  const id = tail === null ? 0 : r.int(1, 99_999);
  const page = r.below(4) === 0 ? r.int(1, 20) : 0;
  const bytes = status === 304 ? 0 : r.int(120, 48_000);
  const ipIndex = r.below(c.ips.length);
  const agent = r.below(AGENTS.length);
  if (keep) {
    const head = PATH_PARTS[pathIndex][0];
    const path = tail === null ? head : `${head}${id}${tail}`;
    const request = `${METHODS[methodIndex]} ${path}${page ? `?page=${page}` : ''} HTTP/1.1`;
    const ip = c.ips[ipIndex];
    const f = c.facts;
    f.level = status >= 500 ? 'ERROR' : status >= 400 ? 'WARN' : 'INFO';
    f.message = request;
    f.service = c.service;
    f.attrs = { remote_addr: ip, status: String(status), body_bytes_sent: String(bytes), user_agent: AGENTS[agent] };
    c.out.text(`${ip} - - [${c.clock.nginx()}] "${request}" ${status} ${bytes}${AGENT_TAILS[agent]}`);
    return;
  }
  // The same line as pre-encoded pieces: no string is made.
  const n = c.nginx;
  const p = n.pieces;
  p.head = n.heads.forDay(c.clock)[ipIndex];
  p.requestHead = REQUEST_HEAD_BYTES[METHOD_SLOT[methodIndex] * PATH_PARTS.length + pathIndex];
  p.pathTail = PATH_TAIL_BYTES[pathIndex];
  p.id = id;
  p.page = page;
  p.protocolStatus = PROTOCOL_STATUS_BYTES[statusIndex];
  p.bytes = bytes;
  p.agentTail = AGENT_TAIL_BYTES[agent];
  const o = c.out;
  o.room(512);
  o.len = writeNginxLine(o.buf, o.len, c.clock, p);
}

const LEVELS = weightTable([
  ['INFO', 80],
  ['DEBUG', 8],
  ['WARN', 8],
  ['ERROR', 4],
]);
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

function appJsonLine(c: FileContext, keep: boolean): void {
  const r = c.rng;
  const level = LEVELS[r.below(LEVELS.length)];
  const message = APP_MESSAGES[r.below(APP_MESSAGES.length)];
  const traceId = r.hex(32);
  const user = r.below(c.users.length);
  const duration = r.int(1, 2_500);
  if (keep) {
    const f = c.facts;
    f.level = level;
    f.message = message;
    f.service = c.service;
    f.attrs = { trace_id: traceId, user_id: c.users[user], duration_ms: String(duration) };
  }
  c.out.text(
    `{"ts":"${c.clock.iso()}","level":"${level}","service":${c.serviceJson},"message":"${message}",` +
      `"trace_id":"${traceId}","user_id":${c.usersJson[user]},"duration_ms":${duration}}\n`,
  );
}

/** RFC 5424 severities (numeric) with their names, weighted. */
const SEVERITIES = weightTable([
  [[6, 'INFO'] as const, 75],
  [[5, 'NOTICE'] as const, 8],
  [[4, 'WARN'] as const, 9],
  [[3, 'ERROR'] as const, 5],
  [[7, 'DEBUG'] as const, 3],
]);
/** App name, MSGID and facility. */
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
const REGIONS = ['eu-west-1', 'us-east-1', 'ap-south-1'];

function syslogLine(c: FileContext, keep: boolean): void {
  const r = c.rng;
  const [app, msgid, facility] = SYSLOG_APPS[r.below(SYSLOG_APPS.length)];
  const [severity, level] = SEVERITIES[r.below(SEVERITIES.length)];
  const pri = facility * 8 + severity;
  const procId = r.int(100, 65_000);
  const messages = SYSLOG_MESSAGES[app];
  const message = messages[r.below(messages.length)];
  const region = REGIONS[r.below(REGIONS.length)];
  if (keep) {
    const f = c.facts;
    f.level = level;
    f.message = message;
    f.service = app;
    f.attrs = { host: c.host, app_name: app, procid: String(procId), msgid, pri: String(pri), region };
  }
  c.out.text(
    `<${pri}>1 ${c.clock.iso()} ${c.host} ${app} ${procId} ${msgid} [meta@32473 region="${region}" env="prod"] ${message}\n`,
  );
}

const SPAN_NAMES = [
  'HTTP GET',
  'HTTP POST',
  'SELECT orders',
  'redis GET',
  'publish order.created',
  'grpc Payments/Authorize',
];

function otelLine(c: FileContext, keep: boolean, ts: number): void {
  const r = c.rng;
  const traceId = r.hex(32);
  const spanId = r.hex(16);
  const parent = r.below(3) === 0 ? '' : r.hex(16);
  const name = SPAN_NAMES[r.below(SPAN_NAMES.length)];
  const durationUs = r.int(50, 900_000);
  const error = r.below(50) === 0;
  const route = PATHS_JSON[r.below(PATHS_JSON.length)];
  const user = c.usersJson[r.below(c.usersJson.length)];
  if (keep) {
    const f = c.facts;
    f.level = error ? 'ERROR' : 'INFO';
    f.message = name;
    f.service = c.service;
    f.attrs = { trace_id: traceId, span_id: spanId, parent_span_id: parent, duration_us: String(durationUs) };
  }
  // Epoch ms × 1,000 stays below 2^53, so the end in ns is exact as (ms × 1,000 + µs) followed by three zeros.
  c.out.text(
    `{"trace_id":"${traceId}","span_id":"${spanId}","parent_span_id":"${parent}","name":"${name}",` +
      `"kind":"${parent ? 'SPAN_KIND_INTERNAL' : 'SPAN_KIND_SERVER'}","start_time_unix_nano":"${ts}000000",` +
      `"end_time_unix_nano":"${ts * 1000 + durationUs}000","status":{"code":"${error ? 'STATUS_CODE_ERROR' : 'STATUS_CODE_OK'}"},` +
      `"resource":{"service.name":${c.serviceJson},"host.name":${c.hostJson}},` +
      `"attributes":{"http.route":${route},"user.id":${user}}}\n`,
  );
}

export const FORMATS: Record<string, LineFormat> = {
  nginx_access: nginxLine,
  app_json: appJsonLine,
  syslog: syslogLine,
  otel_trace: otelLine,
};
