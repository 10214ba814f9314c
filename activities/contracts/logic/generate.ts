import type { DqCheck } from '../../data-quality/logic';
import {
  SETTING_KEYS,
  stamp,
  type OdcsDocument,
  type OdcsObject,
  type OdcsProperty,
  type OdcsQuality,
} from './document';
import { checkColumn, logicalTypeOf, qualityRuleOf } from './types';

/** The spec's generate options (all default true except DQX profiling). */
export interface GenerateOptions {
  include_quality_rules: boolean;
  include_dqx_profiling: boolean;
  include_lineage: boolean;
  include_sla: boolean;
  include_tags: boolean;
  include_properties: boolean;
  include_masks: boolean;
  include_row_filters: boolean;
  include_history: boolean;
}

/** What generate reads about a table (the API gathers it through the platform port and the store). */
export interface TableFacts {
  fqn: string;
  comment: string | null;
  owner: string | null;
  tableType: string;
  columns: { name: string; type: string; nullable: boolean; comment: string | null }[];
  partitionColumns: string[];
  tags: Record<string, string>;
  columnTags: Record<string, Record<string, string>>;
  properties: Record<string, string>;
  masks: { column: string; functionName: string; usingColumns: string[] }[];
  rowFilter: { functionName: string; columns: string[] } | null;
  /** Newest first. */
  history: { version: number; timestamp: string; operation: string }[];
  upstream: string[];
  downstream: string[];
  /** Enabled checks of the data-quality engine for the table. */
  checks: DqCheck[];
  /** Checks suggested from the table's newest profile (DQX profiling). */
  profileChecks: DqCheck[];
  rowCount: number | null;
}

const CLASSIFICATION_TAGS = ['classification', 'data_classification', 'sensitivity'];
const isPiiTag = (k: string, v: string) =>
  k.toLowerCase() === 'pii' ? !/^(false|no|0)$/i.test(v) : /^pii$/i.test(v) && CLASSIFICATION_TAGS.includes(k);

function propertyOf(c: TableFacts['columns'][number], f: TableFacts, o: GenerateOptions): OdcsProperty {
  const tags = f.columnTags[c.name] ?? {};
  const p: OdcsProperty = {
    name: c.name,
    logicalType: logicalTypeOf(c.type),
    physicalType: c.type.toUpperCase(),
    required: !c.nullable,
  };
  if (c.comment) p.description = c.comment;
  const pos = f.partitionColumns.indexOf(c.name);
  if (pos >= 0) Object.assign(p, { partitioned: true, partitionKeyPosition: pos + 1 });
  const cls = CLASSIFICATION_TAGS.map((k) => tags[k]).find(Boolean);
  if (cls && o.include_tags) p.classification = cls.toLowerCase();
  const pii = Object.entries(tags).some(([k, v]) => isPiiTag(k, v));
  if (pii) {
    p.tags = ['pii'];
    p.customProperties = [{ property: 'pii', value: true }];
  }
  if (o.include_tags) {
    const rest = Object.entries(tags).filter(([k]) => k.toLowerCase() !== 'pii' && !CLASSIFICATION_TAGS.includes(k));
    if (rest.length) p.tags = [...(p.tags ?? []), ...rest.map(([k, v]) => (v ? `${k}:${v}` : k))];
  }
  const mask = o.include_masks ? f.masks.find((m) => m.column === c.name) : undefined;
  if (mask) {
    p.encryptedName = `${c.name}_masked`;
    p.classification ??= 'restricted';
    p.customProperties = [...(p.customProperties ?? []), { property: 'columnMask', value: mask.functionName }];
  }
  return p;
}

const hoursBetween = (a: string, b: string) => Math.abs(Date.parse(a) - Date.parse(b)) / 3_600_000;

/** Freshness from history: twice the mean gap between the last (up to 5) commits, at least 24 h. */
export function freshnessHours(history: TableFacts['history']): number {
  const ts = history.slice(0, 5).map((h) => h.timestamp);
  if (ts.length < 2) return 24;
  const gaps = ts.slice(1).map((t, i) => hoursBetween(ts[i], t));
  const mean = gaps.reduce((a, b) => a + b, 0) / gaps.length;
  return Math.max(24, Math.ceil(mean * 2));
}

function qualityOf(f: TableFacts, o: GenerateOptions, properties: OdcsProperty[]): OdcsQuality[] {
  const checks = [...(o.include_quality_rules ? f.checks : []), ...(o.include_dqx_profiling ? f.profileChecks : [])];
  const objectRules: OdcsQuality[] = [];
  const seen = new Set<string>();
  for (const c of checks) {
    const key = `${c.check_function}:${JSON.stringify(c.arguments)}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const rule = qualityRuleOf(c);
    const col = checkColumn(c);
    const prop = col && rule.type === 'library' ? properties.find((p) => p.name === col) : undefined;
    // A required column's nulls are already a schema violation: no second rule for the same thing.
    if (prop && rule.rule === 'nullCheck' && prop.required) continue;
    if (prop) prop.quality = [...(prop.quality ?? []), rule];
    else objectRules.push(rule);
  }
  if (o.include_quality_rules && f.rowCount && f.rowCount > 0)
    objectRules.push({
      type: 'library',
      rule: 'rowCount',
      name: 'row_count_at_least_80_percent',
      mustBeGreaterOrEqualTo: Math.floor(f.rowCount * 0.8),
      severity: 'warning',
      dimension: 'completeness',
      unit: 'rows',
    });
  return objectRules;
}

/**
 * A draft contract for a table: one schema object whose properties are the columns, with the options' quality
 * rules, SLA, tags, properties, masks, row filter, lineage and history. Name `<table>`, version 1.0.
 */
export function generateContract(f: TableFacts, o: GenerateOptions, name: string, version: string): OdcsDocument {
  const [catalog, schema, table] = f.fqn.split('.');
  const properties = f.columns.map((c) => propertyOf(c, f, o));
  const object: OdcsObject = {
    name: table,
    physicalName: f.fqn,
    physicalType: f.tableType.toLowerCase().includes('view') ? 'view' : 'table',
    logicalType: 'object',
    description: f.comment ?? `Generated from ${f.fqn}`,
    properties,
  };
  const quality = qualityOf(f, o, properties);
  if (quality.length) object.quality = quality;
  const custom: { property: string; value: unknown }[] = [];
  if (o.include_tags && Object.keys(f.tags).length)
    object.tags = Object.entries(f.tags).map(([k, v]) => (v ? `${k}:${v}` : k));
  if (o.include_properties)
    for (const [k, v] of Object.entries(f.properties)) custom.push({ property: `tblproperty:${k}`, value: v });
  if (o.include_row_filters && f.rowFilter)
    custom.push({ property: 'rowFilter', value: { function: f.rowFilter.functionName, columns: f.rowFilter.columns } });
  if (o.include_lineage) {
    if (f.upstream.length) custom.push({ property: 'upstreamTables', value: f.upstream });
    if (f.downstream.length) custom.push({ property: 'downstreamTables', value: f.downstream });
  }
  if (o.include_history && f.history.length) {
    custom.push({ property: 'tableVersion', value: f.history[0].version });
    custom.push({ property: 'lastModified', value: f.history[0].timestamp });
    custom.push({
      property: 'recentOperations',
      value: f.history.slice(0, 5).map((h) => `${h.version} ${h.operation} ${h.timestamp}`),
    });
  }
  if (custom.length) object.customProperties = custom;
  const doc: Record<string, unknown> = {
    domain: schema,
    tenant: catalog,
    description: { purpose: f.comment ?? `Data contract of ${f.fqn}` },
    schema: [object],
    customProperties: [{ property: SETTING_KEYS.severity, value: 'error' }],
  };
  if (o.include_sla) {
    const sla: NonNullable<OdcsDocument['slaProperties']> = [
      { property: 'latency', value: freshnessHours(f.history), unit: 'h', element: f.fqn },
    ];
    const retention = f.properties['delta.logRetentionDuration'];
    const days = retention ? /interval\s+(\d+)\s+days?/i.exec(retention)?.[1] : undefined;
    if (days) sla.push({ property: 'retention', value: Number(days), unit: 'd', element: f.fqn });
    doc.slaProperties = sla;
  }
  if (f.owner) doc.team = [{ username: f.owner, role: 'owner' }];
  return stamp(doc, name, version, 'draft');
}
