import type { ByteBuffer } from './byte-buffer';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const P2 = Array.from({ length: 60 }, (_, i) => String(i).padStart(2, '0'));
const P3 = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, '0'));
const DAY_MS = 86_400_000;

/** `HH:MM:SS` of every second of a day as two little-endian 32-bit words each. */
const SECONDS = (() => {
  const out = new Int32Array(86_400 * 2);
  const v = new DataView(out.buffer);
  for (let s = 0; s < 86_400; s++) {
    const text = `${P2[Math.floor(s / 3600)]}:${P2[Math.floor(s / 60) % 60]}:${P2[s % 60]}`;
    for (let k = 0; k < 8; k++) v.setUint8(s * 8 + k, text.charCodeAt(k));
  }
  return out;
})();
/** `.mmm` of every millisecond as one little-endian 32-bit word. */
const MILLIS = Int32Array.from({ length: 1000 }, (_, i) => {
  const t = `.${P3[i]}`;
  return t.charCodeAt(0) | (t.charCodeAt(1) << 8) | (t.charCodeAt(2) << 16) | (t.charCodeAt(3) << 24);
});

/** Formats one instant at a time (UTC), recomputing the date part only when the day changes. */
export class TimeText {
  /** Days since the epoch of the instant; callers cache per-day text on it. */
  day = NaN;
  /** `01/Jan/2026:` and `2026-01-01T` of the day. */
  nginxDay = '';
  isoDay = '';
  /** The instant, epoch ms. */
  ts = 0;
  /** The second of the day (0–86,399) and the millisecond inside it. */
  sec = 0;
  ms = 0;
  /** Epoch ms of the day's midnight, and of the next. */
  private dayStart = NaN;
  private dayEnd = NaN;
  /** Sets the instant (epoch ms, ≥ 0). */
  set(ts: number): void {
    this.ts = ts;
    if (!(ts >= this.dayStart && ts < this.dayEnd)) {
      const day = Math.floor(ts / DAY_MS);
      const d = new Date(day * DAY_MS);
      const y = d.getUTCFullYear();
      this.day = day;
      this.dayStart = day * DAY_MS;
      this.dayEnd = this.dayStart + DAY_MS;
      this.nginxDay = `${P2[d.getUTCDate()]}/${MONTHS[d.getUTCMonth()]}/${y}:`;
      this.isoDay = `${String(y).padStart(4, '0')}-${P2[d.getUTCMonth() + 1]}-${P2[d.getUTCDate()]}T`;
    }
    const rest = ts - this.dayStart;
    const sec = Math.floor(rest / 1000);
    this.sec = sec;
    this.ms = rest - sec * 1000;
  }
  get h(): number {
    return Math.floor(this.sec / 3600);
  }
  get m(): number {
    return Math.floor(this.sec / 60) % 60;
  }
  get s(): number {
    return this.sec % 60;
  }
  /** `01/Jan/2026:13:45:07 +0000` (nginx $time_local in UTC). */
  nginx(): string {
    return `${this.nginxDay}${P2[this.h]}:${P2[this.m]}:${P2[this.s]} +0000`;
  }
  /** `2026-01-01T13:45:07.123Z`, as Date#toISOString writes it. */
  iso(): string {
    return `${this.isoDay}${P2[this.h]}:${P2[this.m]}:${P2[this.s]}.${P3[this.ms]}Z`;
  }
  /** Appends `HH:MM:SS`. */
  putClock(out: ByteBuffer): void {
    out.words2(SECONDS, this.sec * 2);
  }
  /** Appends `HH:MM:SS.mmm`. */
  putClockMillis(out: ByteBuffer): void {
    out.words2(SECONDS, this.sec * 2);
    out.word(MILLIS[this.ms]);
  }
}
