/**
 * A growing byte buffer for one file's ASCII text. Text comes two ways: whole strings (gathered into strings of
 * ~64 KiB, each written with one latin1 write — for ASCII the same bytes as UTF-8) and single pieces written byte by
 * byte (pre-encoded constants, digits), which makes no string at all. Pending text is flushed before any byte write.
 */
export class ByteBuffer {
  buf: Buffer;
  len = 0;
  private pending = '';
  /** `reuse`: a buffer whose bytes are no longer needed, used when it is at least `sizeHint` long. */
  constructor(sizeHint: number, reuse?: Buffer) {
    this.buf = reuse && reuse.length >= sizeHint ? reuse : Buffer.allocUnsafe(Math.max(4096, sizeHint));
  }
  /** Appends text (ASCII). */
  text(s: string): void {
    this.pending += s;
    if (this.pending.length >= 65_536) this.flush();
  }
  /** Room for `n` more bytes written with the byte methods. */
  room(n: number): void {
    if (this.pending) this.flush();
    this.grow(this.len + n);
  }
  bytes(b: Uint8Array): void {
    const buf = this.buf;
    let o = this.len;
    for (let i = 0; i < b.length; i++) buf[o++] = b[i];
    this.len = o;
  }
  /** A non-negative integer in decimal. */
  int(n: number): void {
    const buf = this.buf;
    if (n < 10) {
      buf[this.len++] = 48 + n;
      return;
    }
    let digits = 1;
    for (let p = 10; p <= n; p *= 10) digits++;
    let o = this.len + digits;
    this.len = o;
    do {
      const q = Math.floor(n / 10);
      buf[--o] = 48 + n - q * 10;
      n = q;
    } while (n > 0);
  }
  /** Two digits (0–99). */
  two(n: number): void {
    const q = Math.floor(n / 10);
    this.buf[this.len++] = 48 + q;
    this.buf[this.len++] = 48 + n - q * 10;
  }
  byte(c: number): void {
    this.buf[this.len++] = c;
  }
  /** The bytes so far (a view of the buffer). */
  done(): Buffer {
    this.flush();
    return this.buf.subarray(0, this.len);
  }
  private flush(): void {
    const s = this.pending;
    this.pending = '';
    this.grow(this.len + s.length);
    this.len += this.buf.write(s, this.len, 'latin1');
  }
  private grow(need: number): void {
    if (need <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(need, Math.ceil(this.buf.length * 1.5)));
    this.buf.copy(next, 0, 0, this.len);
    this.buf = next;
  }
}

/** The ASCII bytes of a text. */
export const ascii = (s: string): Uint8Array => Buffer.from(s, 'latin1');
