import { ascii } from './byte-buffer';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const P2 = Array.from({ length: 60 }, (_, i) => String(i).padStart(2, '0'));
const P3 = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, '0'));
const DAY_MS = 86_400_000;

/** Formats one instant at a time (UTC), recomputing the date part only when the day changes. */
export class TimeText {
  private day = NaN;
  private nginxDay = '';
  private isoDay = '';
  /** `01/Jan/2026:` as bytes. */
  nginxDayBytes: Uint8Array = new Uint8Array(0);
  h = 0;
  m = 0;
  s = 0;
  ms = 0;
  /** Sets the instant (epoch ms, ≥ 0). */
  set(ts: number): void {
    const day = Math.floor(ts / DAY_MS);
    if (day !== this.day) {
      const d = new Date(day * DAY_MS);
      const y = d.getUTCFullYear();
      this.day = day;
      this.nginxDay = `${P2[d.getUTCDate()]}/${MONTHS[d.getUTCMonth()]}/${y}:`;
      this.nginxDayBytes = ascii(this.nginxDay);
      this.isoDay = `${String(y).padStart(4, '0')}-${P2[d.getUTCMonth() + 1]}-${P2[d.getUTCDate()]}T`;
    }
    let rest = ts - day * DAY_MS;
    const h = Math.floor(rest / 3_600_000);
    rest -= h * 3_600_000;
    const m = Math.floor(rest / 60_000);
    rest -= m * 60_000;
    const s = Math.floor(rest / 1000);
    this.ms = rest - s * 1000;
    this.h = h;
    this.m = m;
    this.s = s;
  }
  /** `01/Jan/2026:13:45:07 +0000` (nginx $time_local in UTC). */
  nginx(): string {
    return `${this.nginxDay}${P2[this.h]}:${P2[this.m]}:${P2[this.s]} +0000`;
  }
  /** `2026-01-01T13:45:07.123Z`, as Date#toISOString writes it. */
  iso(): string {
    return `${this.isoDay}${P2[this.h]}:${P2[this.m]}:${P2[this.s]}.${P3[this.ms]}Z`;
  }
}
