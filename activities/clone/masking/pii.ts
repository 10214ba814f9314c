import type { PiiMaskRule } from '../../../schemas/clone';

/**
 * PII detection by column tags (pure). A column is PII when a classification tag names a PII type
 * (`pii: email`, `pii_type: ssn`, `classification: pii`, `data_classification: PII.EMAIL`) or when a tag key
 * itself is a PII type (`email: ''`). Each type suggests a masking strategy; a requested strategy wins.
 */
export type MaskStrategy = 'hash' | 'redact' | 'partial' | 'email' | 'null';

const SUGGESTED: Record<string, MaskStrategy> = {
  ssn: 'hash',
  national_id: 'hash',
  tax_id: 'hash',
  passport: 'hash',
  drivers_license: 'hash',
  credit_card: 'hash',
  bank_account: 'hash',
  iban: 'hash',
  ip_address: 'hash',
  mac_address: 'hash',
  vin: 'hash',
  credential: 'hash',
  email: 'email',
  phone: 'partial',
  zip_code: 'partial',
  date_of_birth: 'null',
  financial: 'null',
  demographic: 'null',
  person_name: 'redact',
  name: 'redact',
  first_name: 'redact',
  last_name: 'redact',
  address: 'redact',
  medical: 'redact',
  health: 'redact',
  pii: 'redact',
};

const ALIASES: Record<string, string> = {
  email_address: 'email',
  phone_number: 'phone',
  telephone: 'phone',
  dob: 'date_of_birth',
  birth_date: 'date_of_birth',
  social_security_number: 'ssn',
  us_ssn: 'ssn',
  passport_us: 'passport',
  drivers_licence: 'drivers_license',
  driver_license: 'drivers_license',
  creditcard: 'credit_card',
  card_number: 'credit_card',
  postal_code: 'zip_code',
  zip: 'zip_code',
  ip: 'ip_address',
  full_name: 'person_name',
  street_address: 'address',
  home_address: 'address',
  personal: 'pii',
  sensitive: 'pii',
  personal_data: 'pii',
  true: 'pii',
  yes: 'pii',
};

/** Tag keys whose value classifies the column. */
const CLASS_KEYS = new Set([
  'pii',
  'pii_type',
  'pii_category',
  'classification',
  'data_classification',
  'sensitivity',
  'data_category',
  'class',
]);

const normalise = (s: string): string => {
  const n = s
    .trim()
    .toLowerCase()
    .replace(/^(class\.|pii\.|pii_)/, '')
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_|_$/g, '');
  return ALIASES[n] ?? n;
};

/** The PII type a column's tags declare (a specific type beats a generic "pii" classification), or null. */
export function piiTypeOf(tags: Record<string, string>): string | null {
  const found: string[] = [];
  for (const [key, value] of Object.entries(tags)) {
    const k = normalise(key);
    if (CLASS_KEYS.has(key.trim().toLowerCase()) || k === 'pii') {
      const v = normalise(value ?? '');
      if (v in SUGGESTED) found.push(v);
      else if (v === 'confidential' || v === 'restricted') found.push('pii');
    } else if (k in SUGGESTED) {
      found.push(k);
    }
  }
  return found.find((t) => t !== 'pii') ?? found[0] ?? null;
}

export interface PiiColumn {
  column: string;
  pii_type: string;
  strategy: MaskStrategy;
}

/**
 * Columns of one table to mask: PII by column tags, plus columns a masking rule names (`rules`, matched
 * against `columns` and the tagged columns; first matching rule wins). A rule's strategy beats the requested
 * `strategy`, which beats the tag type's suggestion. Rule-only columns have pii_type `rule`.
 */
export function detectPii(
  columnTags: Record<string, Record<string, string>>,
  strategy?: MaskStrategy | null,
  rules: readonly PiiMaskRule[] = [],
  columns: readonly string[] = [],
): PiiColumn[] {
  const compiled = rules.map((r) => ({ re: new RegExp(r.column, 'i'), strategy: r.strategy }));
  const out: PiiColumn[] = [];
  for (const column of new Set([...Object.keys(columnTags), ...columns])) {
    const pii_type = piiTypeOf(columnTags[column] ?? {});
    const rule = compiled.find((r) => r.re.test(column));
    if (!pii_type && !rule) continue;
    out.push({
      column,
      pii_type: pii_type ?? 'rule',
      strategy: rule?.strategy ?? strategy ?? (pii_type ? SUGGESTED[pii_type] : undefined) ?? 'redact',
    });
  }
  return out.sort((a, b) => a.column.localeCompare(b.column));
}

const TRUE_FLAGS = new Set(['true', 'yes', '1']);

/**
 * Whether an object's tags (a schema's or a table's) mark it as holding personal data: the same PII
 * classification rule as columns (`pii: email`, `classification: confidential`, …), or the object-level flag
 * `contains_pii = true` that the demo vocabulary puts on tables with PII columns.
 */
export function tagsMarkPii(tags: Record<string, string>): boolean {
  if (piiTypeOf(tags) !== null) return true;
  return Object.entries(tags).some(
    ([k, v]) => k.trim().toLowerCase() === 'contains_pii' && TRUE_FLAGS.has((v ?? '').trim().toLowerCase()),
  );
}
