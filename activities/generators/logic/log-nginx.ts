import { Piece } from './byte-buffer';
import type { FileContext, LineWriter } from './log-lines';
import { weightTable } from './rng';

/**
 * nginx access lines (combined format, time in UTC): the IP with the day (`10.0.0.1 - - [01/Jan/2026:`, one piece
 * per pool IP, rebuilt when the day changes), the clock, the zone with the method and the path, the id, the page,
 * the protocol with the status, the body size and the agent's tail.
 */

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
const AGENTS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
  'curl/8.5.0',
  'python-requests/2.32.3',
  'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0',
];

/** Pieces aligned with the tables they are drawn from. ` +0000] "GET /api/orders`: method slot × paths + path. */
const METHOD_NAMES = [...new Set(METHODS)];
const METHOD_SLOT = METHODS.map((m) => METHOD_NAMES.indexOf(m));
const REQUEST_HEADS = METHOD_NAMES.flatMap((m) => PATH_PARTS.map(([head]) => new Piece(` +0000] "${m} ${head}`)));
const PATH_TAILS = PATH_PARTS.map(([, tail]) => (tail === null ? null : new Piece(tail)));
const PROTOCOL_STATUS = (() => {
  const unique = new Map([...new Set(STATUSES)].map((s) => [s, new Piece(` HTTP/1.1" ${s} `)]));
  return STATUSES.map((s) => unique.get(s)!);
})();
const AGENT_TAILS = AGENTS.map((a) => new Piece(` "-" "${a}"\n`));
const PAGE = new Piece('?page=');

export function nginxFormat(c: FileContext): LineWriter {
  const { rng: r, clock, out } = c;
  let day = NaN;
  let heads: Piece[] = [];
  return (keep) => {
    const methodIndex = r.below(METHODS.length);
    const statusIndex = r.below(STATUSES.length);
    const status = STATUSES[statusIndex];
    const pathIndex = r.below(PATH_PARTS.length);
    const tail = PATH_TAILS[pathIndex];
    const id = tail === null ? 0 : r.int(1, 99_999);
    const page = r.below(4) === 0 ? r.int(1, 20) : 0;
    const bytes = status === 304 ? 0 : r.int(120, 48_000);
    const ipIndex = r.below(c.ips.length);
    const agent = r.below(AGENTS.length);
    if (clock.day !== day) {
      day = clock.day;
      heads = c.ips.map((ip) => new Piece(`${ip} - - [${clock.nginxDay}`));
    }
    if (keep) {
      const head = PATH_PARTS[pathIndex][0];
      const path = tail === null ? head : `${head}${id}${tail.text}`;
      const f = c.facts;
      f.level = status >= 500 ? 'ERROR' : status >= 400 ? 'WARN' : 'INFO';
      f.message = `${METHODS[methodIndex]} ${path}${page ? `?page=${page}` : ''} HTTP/1.1`;
      f.service = c.service;
      f.attrs = {
        remote_addr: c.ips[ipIndex],
        status: String(status),
        body_bytes_sent: String(bytes),
        user_agent: AGENTS[agent],
      };
    }
    out.roomForLine();
    out.put(heads[ipIndex]);
    clock.putClock(out);
    out.put(REQUEST_HEADS[METHOD_SLOT[methodIndex] * PATH_PARTS.length + pathIndex]);
    if (tail !== null) {
      out.int(id);
      out.put(tail);
    }
    if (page) {
      out.put(PAGE);
      out.int(page);
    }
    out.put(PROTOCOL_STATUS[statusIndex]);
    out.int(bytes);
    out.put(AGENT_TAILS[agent]);
  };
}
