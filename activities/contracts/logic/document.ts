import { ODCS_API_VERSION, odcsIssues, type OdcsIssue } from './odcs-schema';

/** An ODCS v3 document as Lakeward reads it (the JSON Schema checks the rest). */
export interface OdcsDocument {
  apiVersion: string;
  kind: 'DataContract';
  id: string;
  version: string;
  status: string;
  name?: string;
  domain?: string;
  tenant?: string;
  schema?: OdcsObject[];
  slaProperties?: { property: string; value: unknown; unit?: string; element?: string }[];
  customProperties?: { property?: string; value?: unknown }[];
  [k: string]: unknown;
}

export interface OdcsProperty {
  name: string;
  logicalType?: string;
  physicalType?: string;
  required?: boolean;
  unique?: boolean;
  primaryKey?: boolean;
  classification?: string;
  tags?: string[];
  quality?: OdcsQuality[];
  customProperties?: { property?: string; value?: unknown }[];
  [k: string]: unknown;
}

export interface OdcsObject {
  name: string;
  physicalName?: string;
  properties?: OdcsProperty[];
  quality?: OdcsQuality[];
  [k: string]: unknown;
}

export interface OdcsQuality {
  type?: string;
  rule?: string;
  name?: string;
  severity?: string;
  engine?: string;
  implementation?: unknown;
  mustBe?: unknown;
  mustNotBe?: unknown;
  mustBeGreaterThan?: number;
  mustBeGreaterOrEqualTo?: number;
  mustBeLessThan?: number;
  mustBeLessOrEqualTo?: number;
  mustBeBetween?: number[];
  mustNotBeBetween?: number[];
  [k: string]: unknown;
}

export const CONTRACT_NAME_RE = /^[A-Za-z][A-Za-z0-9_-]{0,99}$/;
const ID_RE = /^([A-Za-z][A-Za-z0-9_-]{0,99})@(\d+)\.(\d+)$/;

/** `orders@1.1` → {name: orders, version: 1.1}; `orders` → {name: orders}; anything else null. */
export function parseContractId(id: string): { name: string; version?: string } | null {
  const m = ID_RE.exec(id);
  if (m) return { name: m[1], version: `${Number(m[2])}.${Number(m[3])}` };
  return CONTRACT_NAME_RE.test(id) ? { name: id } : null;
}

/** The version a new draft gets: 1.0 first, then the newest published minor + 1 (1.0 → 1.1). */
export function nextVersion(latest: string | null): string {
  if (!latest) return '1.0';
  const [major, minor] = latest.split('.').map(Number);
  return `${major}.${minor + 1}`;
}

/** Compares `1.10` and `1.9` as versions. */
export function compareVersions(a: string, b: string): number {
  const [am, an] = a.split('.').map(Number);
  const [bm, bn] = b.split('.').map(Number);
  return am - bm || an - bn;
}

/** The document stamped with Lakeward's fundamentals: apiVersion, kind, id `name@x.y`, version `x.y.0`, status. */
export function stamp(doc: Record<string, unknown>, name: string, version: string, status: string): OdcsDocument {
  return {
    ...doc,
    apiVersion: typeof doc.apiVersion === 'string' ? doc.apiVersion : ODCS_API_VERSION,
    kind: 'DataContract',
    id: `${name}@${version}`,
    version: `${version}.0`,
    status,
    name: typeof doc.name === 'string' ? doc.name : name,
  } as OdcsDocument;
}

/** Settings Lakeward reads from the contract's top-level customProperties. */
export interface ContractSettings {
  /** Where failure events are POSTed. */
  enforcementEndpoint: string | null;
  /** `error`: a failed validation at clone time fails the job; `warn`: it only warns. */
  severity: 'error' | 'warn';
  /** Cron expression of the scheduled validation, or null. */
  schedule: string | null;
}

export const SETTING_KEYS = {
  endpoint: 'enforcementEndpoint',
  severity: 'enforcementSeverity',
  schedule: 'validationSchedule',
} as const;

function custom(doc: OdcsDocument, key: string): unknown {
  return (doc.customProperties ?? []).find((c) => c?.property === key)?.value;
}

export function contractSettings(doc: OdcsDocument): ContractSettings {
  const endpoint = custom(doc, SETTING_KEYS.endpoint);
  const severity = custom(doc, SETTING_KEYS.severity);
  const schedule = custom(doc, SETTING_KEYS.schedule);
  return {
    enforcementEndpoint: typeof endpoint === 'string' && endpoint ? endpoint : null,
    severity: severity === 'warn' || severity === 'warning' ? 'warn' : 'error',
    schedule: typeof schedule === 'string' && schedule.trim() ? schedule.trim() : null,
  };
}

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** An enforcement endpoint must be https; plain http only to this machine (tests, a local relay). */
export function endpointProblem(url: string): string | null {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return 'is not a URL';
  }
  if (u.protocol === 'https:') return null;
  if (u.protocol === 'http:' && LOCAL_HOSTS.has(u.hostname)) return null;
  return 'must be an https URL (http only to localhost)';
}

const CRON_RE = /^(\S+\s+){4}\S+$/;

/**
 * Everything wrong with a document Lakeward is about to store: the official JSON Schema first, then Lakeward's
 * own rules (id form, settings). Paths are JSON paths (`$.schema[0].properties[1].logicalType`).
 */
export function documentIssues(doc: unknown): OdcsIssue[] {
  const issues = odcsIssues(doc);
  if (issues.length) return issues;
  const d = doc as OdcsDocument;
  if (!ID_RE.test(d.id)) issues.push({ path: '$.id', message: 'must have the form name@major.minor' });
  const props = d.customProperties ?? [];
  props.forEach((c, i) => {
    const at = `$.customProperties[${i}].value`;
    if (c.property === SETTING_KEYS.endpoint) {
      const problem = typeof c.value === 'string' ? endpointProblem(c.value) : 'must be a string';
      if (problem) issues.push({ path: at, message: `${SETTING_KEYS.endpoint} ${problem}` });
    }
    if (c.property === SETTING_KEYS.severity && !['error', 'warn', 'warning'].includes(String(c.value)))
      issues.push({ path: at, message: `${SETTING_KEYS.severity} must be error or warn` });
    if (c.property === SETTING_KEYS.schedule && (typeof c.value !== 'string' || !CRON_RE.test(c.value.trim())))
      issues.push({ path: at, message: `${SETTING_KEYS.schedule} must be a 5-field cron expression` });
  });
  (d.schema ?? []).forEach((o, i) =>
    [...(o.quality ?? []), ...(o.properties ?? []).flatMap((p) => p.quality ?? [])].forEach((q) => {
      if (q.type === 'custom' && q.engine === 'dqx') {
        const fn = (q.implementation as { check_function?: unknown } | undefined)?.check_function;
        if (typeof fn !== 'string')
          issues.push({ path: `$.schema[${i}]`, message: 'a dqx rule needs implementation.check_function' });
        else if (/^sql_/.test(fn) || (q.implementation as { filter?: unknown }).filter)
          issues.push({ path: `$.schema[${i}]`, message: `dqx rule ${fn}: SQL rules and filters are not accepted` });
      }
    }),
  );
  return issues;
}

/** The schema object describing `tableFqn`: by physicalName, then by name = the table's name, else the first. */
export function objectFor(doc: OdcsDocument, tableFqn: string): OdcsObject | undefined {
  const objects = doc.schema ?? [];
  const fqn = tableFqn.toLowerCase();
  const table = fqn.split('.').pop();
  return (
    objects.find((o) => o.physicalName?.toLowerCase() === fqn) ??
    objects.find((o) => o.name.toLowerCase() === table) ??
    objects[0]
  );
}

/** The table a contract describes when none is attached: the first object's three-part physicalName. */
export function describedTable(doc: OdcsDocument): string | null {
  const p = doc.schema?.[0]?.physicalName;
  return p && p.split('.').length === 3 ? p : null;
}
