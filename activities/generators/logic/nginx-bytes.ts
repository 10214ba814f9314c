import { ascii } from './byte-buffer';
import type { TimeText } from './log-time';

/**
 * The nginx access line written as bytes, for files whose lines are not kept as rows. A line is a handful of
 * pre-encoded pieces copied with `Uint8Array#set` (a native copy): the IP with the day (`10.0.0.1 - - [01/Jan/2026:`,
 * one per pool IP, rebuilt when the day changes), the time from a table of every second of a day, the zone with the
 * method and the path, the protocol with the status, the body size and the agent's tail. No string is made per line.
 */

/** `HH:MM:SS` of every second of a day, 8 bytes each. */
const SECONDS = (() => {
  const out = new Uint8Array(86_400 * 8);
  const two = (n: number) => String(n).padStart(2, '0');
  for (let s = 0; s < 86_400; s++)
    out.set(ascii(`${two(Math.floor(s / 3600))}:${two(Math.floor(s / 60) % 60)}:${two(s % 60)}`), s * 8);
  return out;
})();

/** Per file: its IPs' line heads for the current day. */
export class NginxHeads {
  private day: Uint8Array | null = null;
  heads: Uint8Array[] = [];
  constructor(private readonly ips: readonly string[]) {}
  /** The heads for the clock's day (rebuilt only when the day changed). */
  forDay(t: TimeText): Uint8Array[] {
    if (t.nginxDayBytes !== this.day) {
      this.day = t.nginxDayBytes;
      const day = Buffer.from(t.nginxDayBytes).toString('latin1');
      this.heads = this.ips.map((ip) => ascii(`${ip} - - [${day}`));
    }
    return this.heads;
  }
}

/** The pieces of one line, each chosen by the caller's draws. */
export interface NginxPieces {
  head: Uint8Array;
  /** The zone, the method and the path up to its id. */
  requestHead: Uint8Array;
  /** The path after its id, or null when the path has no id. */
  pathTail: Uint8Array | null;
  id: number;
  page: number;
  protocolStatus: Uint8Array;
  bytes: number;
  agentTail: Uint8Array;
}

const PAGE = ascii('?page=');

/** Writes one line at `o` of `buf` (which has room for it) and answers the offset after it. */
export function writeNginxLine(buf: Uint8Array, o: number, t: TimeText, p: NginxPieces): number {
  buf.set(p.head, o);
  o += p.head.length;
  const sec = (t.h * 3600 + t.m * 60 + t.s) * 8;
  for (let k = 0; k < 8; k++) buf[o + k] = SECONDS[sec + k];
  o += 8;
  buf.set(p.requestHead, o);
  o += p.requestHead.length;
  if (p.pathTail) {
    o = writeInt(buf, o, p.id);
    buf.set(p.pathTail, o);
    o += p.pathTail.length;
  }
  if (p.page) {
    buf.set(PAGE, o);
    o = writeInt(buf, o + PAGE.length, p.page);
  }
  buf.set(p.protocolStatus, o);
  o = writeInt(buf, o + p.protocolStatus.length, p.bytes);
  buf.set(p.agentTail, o);
  return o + p.agentTail.length;
}

/** A non-negative integer in decimal at `o`; answers the offset after it. */
function writeInt(buf: Uint8Array, o: number, n: number): number {
  if (n < 10) {
    buf[o] = 48 + n;
    return o + 1;
  }
  const end = o + (n < 100 ? 2 : n < 1000 ? 3 : n < 10_000 ? 4 : n < 100_000 ? 5 : String(n).length);
  let at = end;
  do {
    const q = Math.floor(n / 10);
    buf[--at] = 48 + n - q * 10;
    n = q;
  } while (n > 0);
  return end;
}

/** Pieces to be filled per line (one object per file, reused). */
export const emptyPieces = (): NginxPieces => ({
  head: PAGE,
  requestHead: PAGE,
  pathTail: null,
  id: 0,
  page: 0,
  protocolStatus: PAGE,
  bytes: 0,
  agentTail: PAGE,
});
