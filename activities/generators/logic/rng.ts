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
