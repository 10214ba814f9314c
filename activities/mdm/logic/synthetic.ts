import { DOMAINS, FIRST, LAST } from './synthetic-names';

/**
 * Synthetic people with known truth: three source systems that name and format the same facts differently, and
 * duplicates that carry typos, swapped names, nicknames, gaps and moves. Twins (same surname, birth date,
 * address and phone) and household members (same surname, address and phone) are different people: the hard
 * non-duplicates. Deterministic for a seed; no clock, no I/O.
 */

/** mulberry32: a small, fast, seeded PRNG. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface Person {
  entity: number;
  first: string;
  last: string;
  dob: string; // yyyy-MM-dd
  email: string | null;
  phone: string; // 10 digits
  zip: string;
  nationalId: string; // 9 digits
}

/** A record as written: the person's facts after perturbation, and what was done to them. */
export interface SynthRecord extends Person {
  system: 0 | 1 | 2;
  perturbations: string[];
}

export const SYSTEMS = ['crm', 'erp', 'web'] as const;

export const pad = (n: number, w: number) => String(n).padStart(w, '0');

function typo(s: string, r: () => number): string {
  if (s.length < 3) return s;
  const i = 1 + Math.floor(r() * (s.length - 2));
  const kind = r();
  if (kind < 0.4) return s.slice(0, i) + s[i + 1] + s[i] + s.slice(i + 2); // transpose
  if (kind < 0.7) return s.slice(0, i) + s.slice(i + 1); // drop
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  return s.slice(0, i) + letters[Math.floor(r() * 26)] + s.slice(i + 1); // replace
}

/**
 * The perturbations a duplicate may carry, with their probabilities. The mix spreads duplicates over every
 * score band: untouched copies (easy), one or two small changes, and heavily changed ones.
 */
const PERTURB: [string, number][] = [
  ['typo_first', 0.18],
  ['typo_last', 0.12],
  ['nickname', 0.12],
  ['swap_names', 0.04],
  ['no_email', 0.2],
  ['no_phone', 0.1],
  ['no_dob', 0.04],
  ['move', 0.1],
  ['dob_day_month', 0.03],
  ['new_email', 0.08],
];

export interface SyntheticData {
  people: Person[];
  records: SynthRecord[];
  /** Indexes into `records`: untouched duplicate pairs, and twin / household pairs (different people). */
  easy: [number, number][];
  hard: [number, number][];
}

/** Generates at least `records` records (exactly that many) for the seed. */
export function generatePeople(records: number, seed: number): SyntheticData {
  const r = prng(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)];
  const people: Person[] = [];
  const out: SynthRecord[] = [];
  const easy: [number, number][] = [];
  const hard: [number, number][] = [];
  const newPerson = (): Person => {
    const year = 1940 + Math.floor(r() * 65);
    const dob = `${year}-${pad(1 + Math.floor(r() * 12), 2)}-${pad(1 + Math.floor(r() * 28), 2)}`;
    const first = pick(FIRST)[0];
    const last = pick(LAST);
    const entity = people.length;
    return {
      entity,
      first,
      last,
      dob,
      email: `${first}.${last.replace(/[^a-z]/g, '')}${entity % 97}@${pick(DOMAINS)}`,
      phone: `${2 + Math.floor(r() * 8)}${pad(Math.floor(r() * 1e9), 9)}`,
      zip: pad(Math.floor(r() * 100000), 5),
      nationalId: pad(100000000 + entity * 7919 + Math.floor(r() * 7919), 9).slice(-9),
    };
  };
  const emit = (p: Person, system: 0 | 1 | 2, perturbations: string[]): number => {
    const rec: SynthRecord = { ...p, system, perturbations };
    for (const what of perturbations) {
      if (what === 'typo_first') rec.first = typo(rec.first, r);
      else if (what === 'typo_last') rec.last = typo(rec.last, r);
      else if (what === 'nickname') rec.first = FIRST.find(([f]) => f === p.first)?.[1] ?? typo(rec.first, r);
      else if (what === 'swap_names') [rec.first, rec.last] = [rec.last, rec.first];
      else if (what === 'no_email') rec.email = null;
      else if (what === 'no_phone') rec.phone = '';
      else if (what === 'no_dob') rec.dob = '';
      else if (what === 'move') {
        rec.zip = pad(Math.floor(r() * 100000), 5);
        rec.phone = `${2 + Math.floor(r() * 8)}${pad(Math.floor(r() * 1e9), 9)}`;
      } else if (what === 'dob_day_month' && rec.dob) {
        const [y, m, d] = rec.dob.split('-');
        rec.dob = Number(d) <= 12 ? `${y}-${d}-${m}` : rec.dob;
      } else if (what === 'new_email') rec.email = `${rec.first}${Math.floor(r() * 1000)}@${pick(DOMAINS)}`;
    }
    out.push(rec);
    return out.length - 1;
  };
  while (out.length < records) {
    const roll = r();
    // Hard non-duplicates: a twin or a household member of the previous person, each a person of their own.
    if (roll < 0.06 && people.length > 0) {
      const base = people[people.length - 1];
      const p = newPerson();
      let first = pick(FIRST)[0];
      while (first === base.first) first = pick(FIRST)[0];
      const twin = roll < 0.03;
      const relative: Person = {
        ...p,
        first,
        last: base.last,
        dob: twin ? base.dob : p.dob,
        zip: base.zip,
        phone: base.phone,
        email: `${first}.${base.last.replace(/[^a-z]/g, '')}${p.entity % 97}@${pick(DOMAINS)}`,
      };
      people.push(relative);
      const baseRecord = out.findLastIndex((x) => x.entity === base.entity);
      const i = emit(relative, ((out[baseRecord].system + 1) % 3) as 0 | 1 | 2, []);
      hard.push([baseRecord, i]);
      continue;
    }
    const p = newPerson();
    people.push(p);
    const copies = roll < 0.5 ? 1 : roll < 0.8 ? 2 : roll < 0.95 ? 3 : 4;
    const first = Math.floor(r() * 3) as 0 | 1 | 2;
    let firstIndex = -1;
    for (let k = 0; k < copies && out.length < records; k++) {
      const perturbations = k === 0 ? [] : PERTURB.filter(([, prob]) => r() < prob).map(([w]) => w);
      const i = emit(p, ((first + k) % 3) as 0 | 1 | 2, perturbations);
      if (k === 0) firstIndex = i;
      else if (perturbations.length === 0) easy.push([firstIndex, i]);
    }
  }
  return { people, records: out, easy, hard };
}
