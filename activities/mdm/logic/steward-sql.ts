import { ident, lit } from '../../data-quality/logic/sql-text';
import { GOLDEN_HEAD, GOLDEN_TAIL } from './golden-sql';

/**
 * SQL of steward actions on the published golden tables (`golden_records_<type>`, `golden_members_<type>`): each
 * action rewrites a table in one statement (one Delta commit per table). Column lists come from the table itself,
 * so attributes added to a model later are carried along.
 */

export interface GoldenRef {
  catalog: string;
  schema: string;
  name: string;
}
const tableSql = (t: GoldenRef) => `${ident(t.catalog)}.${ident(t.schema)}.${ident(t.name)}`;
const tsSql = (ts: string) => `CAST(${lit(ts)} AS TIMESTAMP)`;

/** Bookkeeping columns of a golden record; every other column is an attribute or its `__source`. */
const FIXED = new Set([...GOLDEN_HEAD, ...GOLDEN_TAIL]);

/** The attribute columns of a golden table (those with a `<attr>__source` companion). */
export function goldenAttributes(columns: string[]): string[] {
  const set = new Set(columns);
  return columns.filter((c) => !FIXED.has(c) && !c.endsWith('__source') && set.has(`${c}__source`));
}

/**
 * Merges golden record `other` into `survivor` (approve_match on records in two golden records): the survivor
 * becomes `active`, not reviewable, counts both records sets and fills its empty attributes from the other (with
 * their provenance); the other becomes `merged_into_other` pointing at the survivor.
 */
export function mergeGoldenSql(g: GoldenRef, columns: string[], survivor: string, other: string, ts: string) {
  const S = lit(survivor);
  const O = lit(other);
  const fromOther = (c: string) => `(SELECT x.${ident(c)} FROM ${tableSql(g)} x WHERE x.entity_id = ${O})`;
  const attrs = new Set(goldenAttributes(columns));
  const select = columns.map((c) => {
    const q = ident(c);
    if (attrs.has(c)) return `CASE WHEN entity_id = ${S} AND ${q} IS NULL THEN ${fromOther(c)} ELSE ${q} END AS ${q}`;
    if (c.endsWith('__source') && attrs.has(c.slice(0, -'__source'.length))) {
      const a = ident(c.slice(0, -'__source'.length));
      return `CASE WHEN entity_id = ${S} AND ${a} IS NULL THEN ${fromOther(c)} ELSE ${q} END AS ${q}`;
    }
    switch (c) {
      case 'status':
        return `CASE WHEN entity_id = ${S} THEN 'active' WHEN entity_id = ${O} THEN 'merged_into_other' ELSE status END AS status`;
      case 'reviewable':
        return `CASE WHEN entity_id IN (${S}, ${O}) THEN FALSE ELSE reviewable END AS reviewable`;
      case 'record_count':
        return `CASE WHEN entity_id = ${S} THEN record_count + coalesce(${fromOther('record_count')}, 0) ELSE record_count END AS record_count`;
      case 'merged_into':
        return `CASE WHEN entity_id = ${O} THEN ${S} ELSE merged_into END AS merged_into`;
      case 'updated_at':
        return `CASE WHEN entity_id IN (${S}, ${O}) THEN ${tsSql(ts)} ELSE updated_at END AS updated_at`;
      default:
        return q;
    }
  });
  return `SELECT ${select.join(', ')} FROM ${tableSql(g)}`;
}

/** approve_match on records already in one golden record: it leaves review (`active`, not reviewable). */
export const approveInPlaceSet = (ts: string): Record<string, string> => ({
  status: `'active'`,
  reviewable: 'FALSE',
  updated_at: tsSql(ts),
});

/** Members of `from` move to `to` (the members table of an approve across two golden records). */
export const moveMembersSet = (to: string, runId: string): Record<string, string> => ({
  entity_id: lit(to),
  run_id: lit(runId),
});

export const entityPredicate = (entityId: string) => `entity_id = ${lit(entityId)}`;
export const recordPredicate = (system: string, recordId: string) =>
  `system = ${lit(system)} AND record_id = ${lit(recordId)}`;

/**
 * A new golden record holding one source record (reject splits it out): its values straight from the
 * standardised source record, confidence 100, `active`.
 */
export function singleRecordGoldenSql(
  g: GoldenRef,
  records: GoldenRef,
  columns: string[],
  entityId: string,
  entityType: string,
  system: string,
  recordId: string,
  runId: string,
  ts: string,
): string {
  const attrs = new Set(goldenAttributes(columns));
  const uid = `concat(r.system, ':', r.record_id)`;
  const select = columns.map((c) => {
    const q = ident(c);
    if (attrs.has(c)) return `r.${q} AS ${q}`;
    if (c.endsWith('__source') && attrs.has(c.slice(0, -'__source'.length)))
      return `CASE WHEN r.${ident(c.slice(0, -'__source'.length))} IS NULL THEN NULL ELSE ${uid} END AS ${q}`;
    const fixed: Record<string, string> = {
      entity_id: lit(entityId),
      entity_type: lit(entityType),
      status: `'active'`,
      reviewable: 'FALSE',
      confidence_score: '100.0',
      record_count: '1',
      merged_into: 'CAST(NULL AS STRING)',
      created_at: tsSql(ts),
      updated_at: tsSql(ts),
      run_id: lit(runId),
    };
    return `${fixed[c] ?? 'NULL'} AS ${q}`;
  });
  return (
    `SELECT ${select.join(', ')} FROM ${tableSql(records)} r ` +
    `WHERE r.system = ${lit(system)} AND r.record_id = ${lit(recordId)} AND NOT r.deleted LIMIT 1`
  );
}

/** The golden record losing a record to a split: one record fewer, active again, touched now. */
export const splitSourceSet = (ts: string): Record<string, string> => ({
  record_count: 'greatest(record_count - 1, 1)',
  status: `CASE WHEN status = 'under_review' THEN 'active' ELSE status END`,
  reviewable: 'FALSE',
  updated_at: tsSql(ts),
});

/** Steward overrides written into a golden record now (provenance `steward`). */
export function overrideSet(values: Record<string, unknown>, columns: string[]): Record<string, string> {
  const attrs = new Set(goldenAttributes(columns));
  const set: Record<string, string> = {};
  for (const [attr, value] of Object.entries(values)) {
    if (!attrs.has(attr)) continue;
    set[attr] = value === null || value === undefined ? 'CAST(NULL AS STRING)' : lit(String(value));
    set[`${attr}__source`] = `'steward'`;
  }
  return set;
}
