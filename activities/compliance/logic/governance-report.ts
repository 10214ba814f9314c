import type { GovernanceSection } from '../../../schemas/compliance';

/** What the catalog-level report is computed from (read through the platform port). */
export interface CatalogFacts {
  catalog: string;
  tables: {
    fqn: string;
    owner: string | null;
    tags: Record<string, string>;
    columns: { name: string; tags: Record<string, string>; masked: boolean }[];
  }[];
  /** Grants on the catalog, each schema and each table. */
  grants: { securable: string; principal: string; privileges: string[] }[];
}

export type OwnerKind = 'user' | 'service_principal' | 'group' | 'missing';

/** An owner's kind by its name: e-mail → user, application id / `sp-` → service principal, else group. */
export function ownerKind(owner: string | null): OwnerKind {
  const o = (owner ?? '').trim().toLowerCase();
  if (!o || o === '(none)') return 'missing';
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(o) || /^(sp|spn)-|application\//.test(o))
    return 'service_principal';
  if (o.includes('@')) return 'user';
  return 'group';
}

const PII_WORDS =
  /(^|_)(email|e_mail|phone|mobile|ssn|social_security|passport|tax_id|national_id|iban|credit_card|card_number|dob|date_of_birth|birth_date|first_name|last_name|full_name|street|address|zip|postal_code|ip_address)(_|$)/i;
const PII_TAG_KEYS = new Set(['pii', 'pii_type', 'classification', 'data_classification', 'sensitivity']);
const PII_TAG_VALUES = /pii|personal|sensitive|confidential|email|phone|ssn|address|name|dob/i;

/** A column is PII when a classification tag says so or its name is a well-known personal-data name. */
export function isPiiColumn(name: string, tags: Record<string, string>): boolean {
  for (const [k, v] of Object.entries(tags)) {
    const key = k.toLowerCase();
    if (key === 'pii' && !/^(false|no|none)$/i.test(v)) return true;
    if (PII_TAG_KEYS.has(key) && PII_TAG_VALUES.test(v)) return true;
  }
  return PII_WORDS.test(name);
}

/** COMPLIANT from 80, WARNING from 50, NON_COMPLIANT below. */
export function sectionStatus(score: number): GovernanceSection['status'] {
  return score >= 80 ? 'COMPLIANT' : score >= 50 ? 'WARNING' : 'NON_COMPLIANT';
}

const ratio = (part: number, whole: number) => (whole === 0 ? 100 : Math.floor((part / whole) * 100));
const section = (
  name: string,
  score: number,
  summary: string,
  details: Record<string, unknown>,
): GovernanceSection => ({
  name,
  score,
  status: sectionStatus(score),
  summary,
  details,
});

const BROAD = new Set(['account users', 'users', 'all users', '*']);

export function ownershipSection(facts: CatalogFacts[]): GovernanceSection {
  const tables = facts.flatMap((f) => f.tables);
  const kinds = { user: 0, service_principal: 0, group: 0, missing: 0 };
  const missing: string[] = [];
  for (const t of tables) {
    const k = ownerKind(t.owner);
    kinds[k] += 1;
    if (k === 'missing') missing.push(t.fqn);
  }
  const score = ratio(tables.length - kinds.missing, tables.length);
  return section('ownership', score, `${tables.length - kinds.missing} of ${tables.length} tables have an owner`, {
    owner_kinds: kinds,
    tables_without_owner: missing.slice(0, 100),
  });
}

export function permissionSection(facts: CatalogFacts[]): GovernanceSection {
  const grants = facts.flatMap((f) => f.grants);
  const broad = grants.filter(
    (g) =>
      BROAD.has(g.principal.toLowerCase()) &&
      g.privileges.some((p) => p !== 'USE_CATALOG' && p !== 'USE_SCHEMA' && p !== 'BROWSE'),
  );
  const allPriv = grants.filter(
    (g) => g.privileges.includes('ALL_PRIVILEGES') || g.privileges.includes('ALL PRIVILEGES'),
  );
  const risky = new Set([...broad, ...allPriv]);
  const score = ratio(grants.length - risky.size, grants.length);
  return section('permissions', score, `${grants.length} grants, ${risky.size} to everyone or with ALL PRIVILEGES`, {
    total_grants: grants.length,
    principals: [...new Set(grants.map((g) => g.principal))].sort(),
    broad_grants: broad,
    all_privileges_grants: allPriv,
  });
}

export function tagCoverageSection(facts: CatalogFacts[]): GovernanceSection {
  const tables = facts.flatMap((f) => f.tables);
  const tagged = tables.filter(
    (t) => Object.keys(t.tags).length > 0 || t.columns.some((c) => Object.keys(c.tags).length > 0),
  );
  return section(
    'tag_coverage',
    ratio(tagged.length, tables.length),
    `${tagged.length} of ${tables.length} tables carry tags`,
    {
      tagged_tables: tagged.length,
      total_tables: tables.length,
      untagged: tables
        .filter((t) => !tagged.includes(t))
        .map((t) => t.fqn)
        .slice(0, 100),
    },
  );
}

export function piiSection(facts: CatalogFacts[]): GovernanceSection {
  const pii = facts.flatMap((f) =>
    f.tables.flatMap((t) =>
      t.columns
        .filter((c) => isPiiColumn(c.name, c.tags))
        .map((c) => ({ column: `${t.fqn}.${c.name}`, masked: c.masked })),
    ),
  );
  const masked = pii.filter((p) => p.masked);
  return section(
    'pii_masking',
    ratio(masked.length, pii.length),
    `${masked.length} of ${pii.length} PII columns are masked`,
    {
      pii_columns: pii.length,
      masked: masked.map((p) => p.column),
      unmasked: pii.filter((p) => !p.masked).map((p) => p.column),
    },
  );
}

export const REPORT_SECTIONS: Record<string, ((f: CatalogFacts[]) => GovernanceSection)[]> = {
  data_governance: [ownershipSection, tagCoverageSection, piiSection],
  pii_audit: [piiSection],
  permission_audit: [permissionSection],
  tag_coverage: [tagCoverageSection],
  ownership_audit: [ownershipSection],
  full_report: [ownershipSection, permissionSection, tagCoverageSection, piiSection],
};

/** Overall score: the integer mean (floor) of the section scores; no sections → 0. */
export function overallScore(sections: GovernanceSection[]): number {
  if (sections.length === 0) return 0;
  return Math.floor(sections.reduce((s, x) => s + x.score, 0) / sections.length);
}
