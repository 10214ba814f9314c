import { Piece } from './byte-buffer';
import type { FileContext, LineWriter } from './log-lines';
import { PATHS } from './log-nginx';
import { hex8, weightTable } from './rng';

/** app_json and otel_trace lines: one JSON object each, keys in a fixed order. */

const LEVELS = weightTable([
  ['INFO', 80],
  ['DEBUG', 8],
  ['WARN', 8],
  ['ERROR', 4],
]);
const LEVEL_NAMES = [...new Set(LEVELS)];
const LEVEL_SLOT = LEVELS.map((l) => LEVEL_NAMES.indexOf(l));
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
const CLOSE = new Piece('}\n');

/** `{"ts":"…","level":"…","service":…,"message":"…","trace_id":"…","user_id":…,"duration_ms":…}`. */
export function appJsonFormat(c: FileContext): LineWriter {
  const { rng: r, clock, out } = c;
  const service = JSON.stringify(c.service);
  /** `Z","level":"…","service":…,"message":"…","trace_id":"` per level slot and message (slot × messages + message). */
  const levelMessages = LEVEL_NAMES.flatMap((l) =>
    APP_MESSAGES.map((m) => new Piece(`Z","level":"${l}","service":${service},"message":"${m}","trace_id":"`)),
  );
  const users = c.users.map((u) => new Piece(`","user_id":${JSON.stringify(u)},"duration_ms":`));
  let day = NaN;
  let head = new Piece('');
  return (keep) => {
    const level = r.below(LEVELS.length);
    const message = r.below(APP_MESSAGES.length);
    const t0 = r.word();
    const t1 = r.word();
    const t2 = r.word();
    const t3 = r.word();
    const user = r.below(c.users.length);
    const duration = r.int(1, 2_500);
    if (clock.day !== day) {
      day = clock.day;
      head = new Piece(`{"ts":"${clock.isoDay}`);
    }
    if (keep) {
      const f = c.facts;
      f.level = LEVELS[level];
      f.message = APP_MESSAGES[message];
      f.service = c.service;
      f.attrs = {
        trace_id: hex8(t0) + hex8(t1) + hex8(t2) + hex8(t3),
        user_id: c.users[user],
        duration_ms: String(duration),
      };
    }
    out.roomForLine();
    out.put(head);
    clock.putClockMillis(out);
    out.put(levelMessages[LEVEL_SLOT[level] * APP_MESSAGES.length + message]);
    out.hex8(t0);
    out.hex8(t1);
    out.hex8(t2);
    out.hex8(t3);
    out.put(users[user]);
    out.int(duration);
    out.put(CLOSE);
  };
}

const SPAN_NAMES = [
  'HTTP GET',
  'HTTP POST',
  'SELECT orders',
  'redis GET',
  'publish order.created',
  'grpc Payments/Authorize',
];
const TRACE_HEAD = new Piece('{"trace_id":"');
const SPAN_ID = new Piece('","span_id":"');
const PARENT_ID = new Piece('","parent_span_id":"');
/** Per span name: without a parent (a server span), with one (internal). */
const NAME_KIND = SPAN_NAMES.flatMap((n) =>
  ['SPAN_KIND_SERVER', 'SPAN_KIND_INTERNAL'].map(
    (k) => new Piece(`","name":"${n}","kind":"${k}","start_time_unix_nano":"`),
  ),
);
const START_END = new Piece('000000","end_time_unix_nano":"');

/** An OTLP/JSON-style span per line; start and end in ns since the epoch, as strings. */
export function otelFormat(c: FileContext): LineWriter {
  const { rng: r, out } = c;
  const resource = `"resource":{"service.name":${JSON.stringify(c.service)},"host.name":${JSON.stringify(c.host)}}`;
  /** The status, the resource and the route, per status (OK, ERROR) and route (status × routes + route). */
  const statusRoutes = ['STATUS_CODE_OK', 'STATUS_CODE_ERROR'].flatMap((s) =>
    PATHS.map(
      (p) =>
        new Piece(
          `000","status":{"code":"${s}"},${resource},"attributes":{"http.route":${JSON.stringify(p)},"user.id":`,
        ),
    ),
  );
  const users = c.users.map((u) => new Piece(`${JSON.stringify(u)}}}\n`));
  return (keep) => {
    const ts = c.clock.ts;
    const t0 = r.word();
    const t1 = r.word();
    const t2 = r.word();
    const t3 = r.word();
    const s0 = r.word();
    const s1 = r.word();
    const hasParent = r.below(3) !== 0;
    const p0 = hasParent ? r.word() : 0;
    const p1 = hasParent ? r.word() : 0;
    const name = r.below(SPAN_NAMES.length);
    const durationUs = r.int(50, 900_000);
    const error = r.below(50) === 0;
    const route = r.below(PATHS.length);
    const user = r.below(users.length);
    if (keep) {
      const f = c.facts;
      f.level = error ? 'ERROR' : 'INFO';
      f.message = SPAN_NAMES[name];
      f.service = c.service;
      f.attrs = {
        trace_id: hex8(t0) + hex8(t1) + hex8(t2) + hex8(t3),
        span_id: hex8(s0) + hex8(s1),
        parent_span_id: hasParent ? hex8(p0) + hex8(p1) : '',
        duration_us: String(durationUs),
      };
    }
    out.roomForLine();
    out.put(TRACE_HEAD);
    out.hex8(t0);
    out.hex8(t1);
    out.hex8(t2);
    out.hex8(t3);
    out.put(SPAN_ID);
    out.hex8(s0);
    out.hex8(s1);
    out.put(PARENT_ID);
    if (hasParent) {
      out.hex8(p0);
      out.hex8(p1);
    }
    out.put(NAME_KIND[name * 2 + (hasParent ? 1 : 0)]);
    out.int(ts);
    out.put(START_END);
    // Epoch ms × 1,000 stays below 2^53, so the end in ns is exact as (ms × 1,000 + µs) followed by three zeros.
    out.int(ts * 1000 + durationUs);
    out.put(statusRoutes[(error ? PATHS.length : 0) + route]);
    out.put(users[user]);
  };
}
