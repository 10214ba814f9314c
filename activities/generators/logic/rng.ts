import { Faker, base, en } from '@faker-js/faker';
import { unsafeUniformIntDistribution, xoroshiro128plus, type RandomGenerator } from 'pure-rand';

/** 32-bit FNV-1a of a text: how one request seed becomes an independent seed per item. */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** The seed of one item: the request's seed and as_of, the kind, the type and the item's index. */
export function itemSeed(seed: number, asOf: string, kind: string, type: string, index: number): number {
  return hash32(`${seed}|${asOf}|${kind}|${type}|${index}`);
}

/** A seeded random source (pure-rand xoroshiro128+): every choice of an item comes from here or its Faker. */
export class Rng {
  private readonly g: RandomGenerator;
  constructor(seed: number) {
    this.g = xoroshiro128plus(seed | 0);
  }
  /** An integer in [min, max] (ranges up to 2^32: one draw, modulo; pure-rand's exact distribution beyond). */
  int(min: number, max: number): number {
    const span = max - min + 1;
    if (span > 0x1_0000_0000) return unsafeUniformIntDistribution(min, max, this.g);
    return min + ((this.g.unsafeNext() >>> 0) % span);
  }
  /** A float in [0, 1). */
  float(): number {
    return this.int(0, 0x3fffffff) / 0x40000000;
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(0, items.length - 1)];
  }
  /** One of `items` by weight. */
  weighted<T>(items: readonly (readonly [T, number])[]): T {
    const total = items.reduce((s, [, w]) => s + w, 0);
    let r = this.int(0, total - 1);
    for (const [v, w] of items) {
      if (r < w) return v;
      r -= w;
    }
    return items[items.length - 1][0];
  }
  hex(chars: number): string {
    let out = '';
    while (out.length < chars) out += this.int(0, 0xffff).toString(16).padStart(4, '0');
    return out.slice(0, chars);
  }
}

/** A Faker whose every answer follows `seed` and whose "now" is as_of (midnight UTC). */
export function seededFaker(seed: number, asOf: string): Faker {
  const f = new Faker({ locale: [en, base] });
  f.seed(seed);
  f.setDefaultRefDate(asOfDate(asOf));
  return f;
}

export function asOfDate(asOf: string): Date {
  return new Date(`${asOf}T00:00:00.000Z`);
}

/** A random source and a Faker for one item. */
export function itemSources(seed: number, asOf: string, kind: string, type: string, index: number) {
  const s = itemSeed(seed, asOf, kind, type, index);
  return { rng: new Rng(s), faker: seededFaker(s, asOf), seed: s };
}

/**
 * A fast integer source for per-line choices (xoshiro128**), its 128-bit state drawn from a seeded `Rng`, so it
 * follows the item's seed like every other choice. Used where millions of draws are made (log lines).
 */
export class LineRng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  constructor(from: Rng) {
    this.a = from.int(0, 0xffffffff) | 0;
    this.b = from.int(0, 0xffffffff) | 0;
    this.c = from.int(0, 0xffffffff) | 0;
    this.d = from.int(0, 0xffffffff) | 1; // never the all-zero state
  }
  /** An unsigned 32-bit integer. */
  next(): number {
    return this.word() >>> 0;
  }
  /**
   * The same draw as `next`, as a signed 32-bit integer (the same 32 bits): a small integer to V8, so passing it on
   * never allocates, where an unsigned value of 2^31 or more becomes a heap number.
   */
  word(): number {
    const b = this.b;
    const m = Math.imul(b, 5);
    const r = Math.imul((m << 7) | (m >>> 25), 9);
    const t = b << 9;
    this.c ^= this.a;
    this.d ^= b;
    this.b ^= this.c;
    this.a ^= this.d;
    this.c ^= t;
    this.d = (this.d << 11) | (this.d >>> 21);
    return r | 0;
  }
  /** An integer in [0, n) for n ≤ 2^21 (multiply-shift of one draw). */
  below(n: number): number {
    return Math.floor(this.next() * n * 2.3283064365386963e-10);
  }
  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + this.below(max - min + 1);
  }
  /** A float in [0, 1). */
  float(): number {
    return this.next() * 2.3283064365386963e-10;
  }
  pick<T>(items: readonly T[]): T {
    return items[this.below(items.length)];
  }
  /** `chars` (a multiple of 8) lowercase hex digits. */
  hex(chars: number): string {
    let out = '';
    for (let i = 0; i < chars; i += 8) out += hex8(this.next());
    return out;
  }
}

const HEX2 = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** The 8 lowercase hex digits of a 32-bit integer (its bits, signed or not), most significant first. */
export const hex8 = (x: number): string =>
  HEX2[x >>> 24] + HEX2[(x >>> 16) & 255] + HEX2[(x >>> 8) & 255] + HEX2[x & 255];

/** A table of `items` repeated by weight: `table[rng.below(table.length)]` is a weighted choice in one draw. */
export function weightTable<T>(items: readonly (readonly [T, number])[]): T[] {
  const out: T[] = [];
  for (const [v, w] of items) for (let i = 0; i < w; i++) out.push(v);
  return out;
}
