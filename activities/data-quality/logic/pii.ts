/**
 * Built-in PII detectors for does_not_contain_pii (no NLP service). Each has a JS regex for detectPii and an
 * RE2-compatible SQL regex (Databricks regexp_like, DuckDB regexp_matches); payment cards also need a Luhn pass,
 * written in SQL by compile-pii.
 */
export const PII_TYPES = ['email', 'phone', 'us_ssn', 'credit_card', 'iban', 'ip_address'] as const;
export type PiiType = (typeof PII_TYPES)[number];

/** Patterns shared by JS and SQL: RE2 syntax (no look-around, no back-references). */
export const PII_PATTERNS: Record<PiiType, string> = {
  email: '[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\\.[A-Za-z]{2,}',
  phone: '(\\+[0-9]{1,3}[ .-]?)?(\\([0-9]{3}\\)|[0-9]{3})[ .-][0-9]{3}[ .-][0-9]{4}',
  us_ssn: '(^|[^0-9])[0-8][0-9]{2}-[0-9]{2}-[0-9]{4}([^0-9]|$)',
  credit_card: '(^|[^0-9])[0-9]{4}[ -]?[0-9]{4}[ -]?[0-9]{4}[ -]?[0-9]{1,7}([^0-9]|$)',
  iban: '(^|[^A-Z0-9])[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}([^A-Z0-9]|$)',
  ip_address: '(^|[^0-9.])(25[0-5]|2[0-4][0-9]|1?[0-9]?[0-9])(\\.(25[0-5]|2[0-4][0-9]|1?[0-9]?[0-9])){3}([^0-9.]|$)',
};

export function luhnValid(digits: string): boolean {
  if (!/^[0-9]{13,19}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
    sum += d;
  }
  return sum % 10 === 0;
}

function ibanValid(text: string): boolean {
  const rearranged = text.slice(4) + text.slice(0, 4);
  let rest = 0;
  for (const ch of rearranged) {
    const v = /[0-9]/.test(ch) ? ch : String(ch.charCodeAt(0) - 55);
    for (const d of v) rest = (rest * 10 + Number(d)) % 97;
  }
  return rest === 1;
}

/** The PII types found in a value. Cards must pass Luhn, IBANs their mod-97 check digits. */
export function detectPii(value: string): PiiType[] {
  const found: PiiType[] = [];
  for (const type of PII_TYPES) {
    const re = new RegExp(PII_PATTERNS[type], 'g');
    const matches = value.match(re) ?? [];
    const hit = matches.some((m) => {
      if (type === 'credit_card') return luhnValid(m.replace(/[^0-9]/g, ''));
      if (type === 'iban') return ibanValid(m.replace(/[^A-Z0-9]/g, ''));
      return true;
    });
    if (hit) found.push(type);
  }
  return found;
}
