/**
 * Writing one file's ASCII text as bytes, a 32-bit word at a time. Constant text is pre-encoded once as a `Piece`
 * (its bytes as little-endian words, the last one padded) and copied with a few `DataView#setInt32` stores, which
 * V8 compiles to plain unaligned stores: no string is made and no native call happens per line. A piece's copy may
 * write up to 3 bytes past its end; those bytes are always written again by what follows, and `ByteBuffer#room`
 * keeps that slack inside the buffer.
 */

/** Bytes a piece copy may write past its end. */
const SLACK = 4;
/** More than any log line of any format takes (the longest, otel_trace, stays under 600 bytes). */
export const LINE_ROOM = 1024;

export class ByteBuffer {
  buf: Buffer;
  view: DataView;
  len = 0;
  /** Bytes handed to the sink so far. */
  flushed = 0;
  /**
   * `reuse`: a buffer whose bytes are no longer needed, used when it is at least `sizeHint` long. With a `sink`,
   * the buffer is a window: when a line may not fit, its bytes go to the sink (which is done with them when it
   * returns) and writing starts again at its start.
   */
  constructor(
    sizeHint: number,
    reuse?: Buffer,
    private readonly sink?: (bytes: Buffer) => void,
  ) {
    this.buf = reuse && reuse.length >= sizeHint ? reuse : Buffer.allocUnsafe(Math.max(4096, sizeHint));
    this.view = viewOf(this.buf);
  }
  /** Room for `n` more bytes (and the slack of a piece copy) at `len`. */
  room(n: number): void {
    if (this.len + n + SLACK > this.buf.length) this.grow(this.len + n + SLACK);
  }
  /** Appends text (ASCII). */
  text(s: string): void {
    this.room(s.length);
    this.len += this.buf.write(s, this.len, 'latin1');
  }
  // The byte writers below need `room` for what they write. They are methods (not module functions) so that the
  // line writers call them directly from any module and V8 inlines them.
  /** Appends a piece: word by word, or with one native copy when it is long. */
  put(p: Piece): void {
    const o = this.len;
    const w = p.words;
    if (w.length > LONG_WORDS) this.buf.set(p.bytes, o);
    else for (let i = 0; i < w.length; i++) this.view.setInt32(o + i * 4, w[i], true);
    this.len = o + p.length;
  }
  /** Room for one more line of any format (what `LINE_ROOM` says, without reading it through a module binding). */
  roomForLine(): void {
    if (this.len + LINE_ROOM + SLACK > this.buf.length) this.full();
  }
  /**
   * Appends a non-negative integer below 2^53 in decimal. Below 2^31 the digits come from 32-bit integer divisions
   * (which V8 turns into multiplications); a larger one is written as its part above 10^8, then 8 padded digits.
   */
  int(n: number): void {
    if (n < 0x8000_0000) this.int32(n | 0);
    else {
      const high = Math.floor(n / 1e8);
      this.int32(high | 0);
      this.digits8((n - high * 1e8) | 0);
    }
  }
  /** Appends an integer in [0, 2^31) in decimal. */
  private int32(n: number): void {
    const v = this.view;
    const end = this.len + digitCount(n);
    let at = end;
    while (n >= 100) {
      const q = (n / 100) | 0;
      at -= 2;
      v.setUint16(at, DIGITS2[n - q * 100], true);
      n = q;
    }
    if (n >= 10) v.setUint16(at - 2, DIGITS2[n], true);
    else v.setUint8(at - 1, 48 + n);
    this.len = end;
  }
  /** Appends an integer in [0, 10^8) as exactly 8 digits (zero-padded). */
  private digits8(n: number): void {
    const v = this.view;
    const o = this.len;
    const high = (n / 10_000) | 0;
    const low = n - high * 10_000;
    const a = (high / 100) | 0;
    const b = (low / 100) | 0;
    v.setUint16(o, DIGITS2[a], true);
    v.setUint16(o + 2, DIGITS2[high - a * 100], true);
    v.setUint16(o + 4, DIGITS2[b], true);
    v.setUint16(o + 6, DIGITS2[low - b * 100], true);
    this.len = o + 8;
  }
  /** Appends the 8 lowercase hex digits of a 32-bit integer (its bits, signed or not), most significant first. */
  hex8(x: number): void {
    const v = this.view;
    const o = this.len;
    v.setUint16(o, HEX2[x >>> 24], true);
    v.setUint16(o + 2, HEX2[(x >>> 16) & 255], true);
    v.setUint16(o + 4, HEX2[(x >>> 8) & 255], true);
    v.setUint16(o + 6, HEX2[x & 255], true);
    this.len = o + 8;
  }
  /** Appends two 32-bit words (8 bytes) from a table, at `at` and `at + 1`. */
  words2(table: Int32Array, at: number): void {
    const o = this.len;
    this.view.setInt32(o, table[at], true);
    this.view.setInt32(o + 4, table[at + 1], true);
    this.len = o + 8;
  }
  /** Appends 4 bytes: a 32-bit word. */
  word(w: number): void {
    this.view.setInt32(this.len, w, true);
    this.len += 4;
  }
  /** The bytes so far (a view of the buffer); with a sink, they go there and this is empty. */
  done(): Buffer {
    if (this.sink && this.len > 0) this.flush();
    return this.buf.subarray(0, this.len);
  }
  private full(): void {
    if (this.sink) this.flush();
    else this.grow(this.len + LINE_ROOM + SLACK);
  }
  private flush(): void {
    this.sink!(this.buf.subarray(0, this.len));
    this.flushed += this.len;
    this.len = 0;
  }
  private grow(need: number): void {
    const next = Buffer.allocUnsafe(Math.max(need, Math.ceil(this.buf.length * 1.5)));
    this.buf.copy(next, 0, 0, this.len);
    this.buf = next;
    this.view = viewOf(next);
  }
}

const viewOf = (b: Buffer) => new DataView(b.buffer, b.byteOffset, b.length);

/** Pieces longer than this many words are copied with one native call (cheaper than the word loop there). */
const LONG_WORDS = 10;

/** Constant ASCII text, pre-encoded. */
export class Piece {
  readonly bytes: Uint8Array;
  readonly words: Int32Array;
  readonly length: number;
  constructor(readonly text: string) {
    this.bytes = ascii(text);
    const padded = new Uint8Array(Math.ceil(this.bytes.length / 4) * 4);
    padded.set(this.bytes);
    this.words = new Int32Array(padded.length / 4);
    const v = new DataView(padded.buffer);
    for (let i = 0; i < this.words.length; i++) this.words[i] = v.getInt32(i * 4, true);
    this.length = this.bytes.length;
  }
}

/** Two decimal digits `00`–`99` as one little-endian 16-bit value. */
const DIGITS2 = Uint16Array.from({ length: 100 }, (_, i) => (48 + Math.floor(i / 10)) | ((48 + (i % 10)) << 8));

/** Decimal digits of an integer in [0, 2^31). */
function digitCount(n: number): number {
  if (n < 100_000) return n < 10 ? 1 : n < 100 ? 2 : n < 1000 ? 3 : n < 10_000 ? 4 : 5;
  return n < 1_000_000 ? 6 : n < 10_000_000 ? 7 : n < 100_000_000 ? 8 : n < 1_000_000_000 ? 9 : 10;
}

/** Two lowercase hex digits of a byte as one little-endian 16-bit value. */
const HEX2 = Uint16Array.from({ length: 256 }, (_, i) => {
  const d = (x: number) => (x < 10 ? 48 + x : 87 + x);
  return d(i >>> 4) | (d(i & 15) << 8);
});

/** The ASCII bytes of a text. */
export const ascii = (s: string): Uint8Array => Buffer.from(s, 'latin1');
