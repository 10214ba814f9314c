import currencyCodes from 'currency-codes';
import { lazyModule } from '../../../platform/lazy-module';
import { compareExpr } from './standardise';

/**
 * Reference data: how a value is compared with codes and aliases, and the built-in ISO domains. Pure (the ISO
 * tables come from the packages' bundled data).
 */

/**
 * The comparison form of a code or alias: accents dropped, upper case, letters and digits only. "U.S.A.", "usa"
 * and "USA" all become "USA" (an alias of US), so they compare equal to "US".
 */
export function normaliseAlias(value: string): string {
  return value
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, '');
}

/** The same normalisation in SQL (Databricks SQL and DuckDB; accents dropped by `translate`), for ingest. */
export const normaliseAliasSql = (expr: string) =>
  `regexp_replace(upper(${compareExpr('name', `lower(${expr})`)}), '[^A-Z0-9]', '')`;

export interface RefCode {
  code: string;
  description: string | null;
  aliases: string[];
  parent: string | null;
  valid_from: string | null;
  valid_to: string | null;
}

export interface BuiltinDomain {
  name: string;
  description: string;
  codes: RefCode[];
}

const code = (c: string, description: string, aliases: string[]): RefCode => ({
  code: c,
  description,
  aliases: [...new Set(aliases.filter((a) => a && normaliseAlias(a) !== normaliseAlias(c)))],
  parent: null,
  valid_from: null,
  valid_to: null,
});

/** i18n-iso-countries (every locale's names) loads when the country domain is first built. */
const countriesModule = lazyModule<typeof import('i18n-iso-countries')>('i18n-iso-countries');

/** ISO 3166-1: alpha-2 codes; aliases alpha-3, numeric and the English names (i18n-iso-countries). */
function iso3166(): BuiltinDomain {
  const countries = countriesModule();
  const names = countries.getNames('en', { select: 'all' }) as Record<string, string[]>;
  const codes = Object.keys(countries.getAlpha2Codes())
    .sort()
    .map((a2) =>
      code(a2, names[a2]?.[0] ?? a2, [
        countries.alpha2ToAlpha3(a2) ?? '',
        countries.alpha2ToNumeric(a2) ?? '',
        ...(names[a2] ?? []),
      ]),
    );
  return {
    name: 'iso_3166_1',
    description: 'ISO 3166-1 countries (alpha-2; alpha-3, numeric and names as aliases)',
    codes,
  };
}

/** ISO 4217: alphabetic codes; aliases the numeric code and the currency name (currency-codes). */
function iso4217(): BuiltinDomain {
  const codes = [...currencyCodes.data]
    .sort((a, b) => (a.code < b.code ? -1 : 1))
    .map((c) => code(c.code, c.currency, [c.number, c.currency]));
  return { name: 'iso_4217', description: 'ISO 4217 currencies (alphabetic; numeric and names as aliases)', codes };
}

export const builtinDomains = (): BuiltinDomain[] => [iso3166(), iso4217()];

/**
 * Alias rows of a domain (the code itself included), first claim wins: a normalised alias that two codes share
 * is reported in `clashes` (user data: a 409; built-ins: the later name is dropped).
 */
export function aliasRows(codes: RefCode[]): {
  rows: { alias: string; code: string }[];
  clashes: { alias: string; codes: string[] }[];
} {
  const owner = new Map<string, string>();
  const clashes: { alias: string; codes: string[] }[] = [];
  for (const c of codes)
    for (const a of [c.code, ...c.aliases]) {
      const n = normaliseAlias(a);
      if (!n) continue;
      const prev = owner.get(n);
      if (prev === undefined) owner.set(n, c.code);
      else if (prev !== c.code) clashes.push({ alias: n, codes: [prev, c.code] });
    }
  return { rows: [...owner].map(([alias, c]) => ({ alias, code: c })), clashes };
}

/** Whether a code is valid on `day` (ISO date): valid_from ≤ day < valid_to, open ends allowed. */
export const validOn = (c: Pick<RefCode, 'valid_from' | 'valid_to'>, day: string) =>
  (!c.valid_from || c.valid_from <= day) && (!c.valid_to || day < c.valid_to);
