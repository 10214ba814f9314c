/** Numbers as people write them: 1,000,000 · 1.5k · 2m · 10 thousand · ten · twenty five. Pure. */

const UNITS: Record<string, number> = {
  zero: 0,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90,
};
const SCALES: Record<string, number> = { hundred: 100, thousand: 1_000, million: 1_000_000, billion: 1_000_000_000 };
const SUFFIX: Record<string, number> = { k: 1_000, m: 1_000_000, b: 1_000_000_000 };

export const isNumberWord = (w: string) => w.toLowerCase() in UNITS || w.toLowerCase() in SCALES;

/** A numeral token (`1,000`, `-2.5`, `1.5k`) as a number, or null. */
export function numeral(text: string): number | null {
  const m = /^(-?\d{1,3}(?:,\d{3})+|-?\d+)(\.\d+)?([kmb])?$/i.exec(text);
  if (!m) return null;
  const base = Number(m[1].replace(/,/g, '') + (m[2] ?? ''));
  return m[3] ? Math.round(base * SUFFIX[m[3].toLowerCase()] * 1e6) / 1e6 : base;
}

/** Number words (`twenty five`, `two hundred`, `3 thousand` after a numeral) folded into one value, or null. */
export function wordsValue(words: string[], start = 0): number | null {
  if (!words.length) return null;
  let total = 0;
  let current = start;
  for (const raw of words) {
    const w = raw.toLowerCase();
    if (w in UNITS) current += UNITS[w];
    else if (w === 'hundred') current = (current || 1) * 100;
    else if (w in SCALES) {
      total += (current || 1) * SCALES[w];
      current = 0;
    } else return null;
  }
  return total + current;
}
