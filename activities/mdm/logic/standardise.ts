import type { AttributeKind, MdmModel, MdmSource } from '../../../schemas/mdm';
import { ident, lit } from '../../data-quality/logic/sql-text';

/**
 * Standardisation at ingest, as Databricks SQL expressions (the local lakehouse runs the same text on DuckDB).
 * Every comparison later runs on these values, so two spellings of one value must standardise equal here.
 */

/** Date formats a text column may hold, tried in order (`/` is read month first, `-` after a day day first). */
export const DATE_FORMATS = ['yyyy-MM-dd', 'yyyyMMdd', 'MM/dd/yyyy', 'dd-MM-yyyy', 'yyyy/MM/dd'] as const;

const TEXTUAL = /^(string|varchar|char)/i;
const TEMPORAL = /^(date|timestamp)/i;

/** The standardised value of `column` (of SQL type `type`) for an attribute of `kind`; NULL when blank. */
export function standardiseExpr(kind: AttributeKind, column: string, type: string): string {
  const c = ident(column);
  const s = `CAST(${c} AS STRING)`;
  switch (kind) {
    case 'name':
      // letters (accented ones kept) lower case, single spaces: "O'Brien-Smith" → "obriensmith", "José  Ann" →
      // "josé ann"; comparisons read the accent-free form (`compareExpr`)
      return `nullif(trim(regexp_replace(regexp_replace(lower(${s}), '[^${NAME_LETTERS} ]', ''), ' +', ' ')), '')`;
    case 'email':
      return `nullif(lower(trim(${s})), '')`;
    case 'phone': {
      // digits only; a longer number keeps its last 10 digits (the national number without a country code)
      const digits = `regexp_replace(${s}, '[^0-9]', '')`;
      return `nullif(CASE WHEN length(${digits}) > 10 THEN substr(${digits}, -10) ELSE ${digits} END, '')`;
    }
    case 'date': {
      if (TEMPORAL.test(type)) return `CAST(CAST(${c} AS DATE) AS STRING)`;
      const t = `trim(${s})`;
      const parsed = DATE_FORMATS.map((f) =>
        f === 'yyyy-MM-dd' ? `try_to_timestamp(substr(${t}, 1, 10), ${lit(f)})` : `try_to_timestamp(${t}, ${lit(f)})`,
      );
      return `CAST(CAST(coalesce(${parsed.join(', ')}) AS DATE) AS STRING)`;
    }
    case 'id':
      return `nullif(upper(regexp_replace(${s}, '[^A-Za-z0-9]', '')), '')`;
    case 'code':
      // the alias key; ingestSql turns it into the domain's code through reference_aliases
      return `nullif(regexp_replace(upper(${compareExpr('name', `lower(${s})`)}), '[^A-Z0-9]', ''), '')`;
  }
}

/**
 * The letters a name keeps, as a regular-expression class body without a backslash (Databricks reads one in a
 * literal as an escape, DuckDB does not): ASCII, Latin-1 and Latin Extended letters, Greek, Cyrillic, and
 * combining marks (a decomposed "é" keeps its accent).
 */
const NAME_LETTERS = 'a-zß-öø-ÿĀ-ɏ̀-ͯͰ-ϿЀ-ӿḀ-ỿ';

/** Accented letters and what they compare as (one letter each), then the combining marks, which compare as nothing. */
const FOLD: [string, string] = (() => {
  const [from, to] = [[] as string[], [] as string[]];
  const ranges: [number, number][] = [
    [0xdf, 0xff],
    [0x100, 0x24f],
    [0x1e00, 0x1eff],
  ];
  const extra: Record<string, string> = { ø: 'o', ł: 'l', đ: 'd', ħ: 'h', ı: 'i', ŧ: 't' };
  for (const [lo, hi] of ranges)
    for (let c = lo; c <= hi; c++) {
      const ch = String.fromCodePoint(c);
      if (ch !== ch.toLowerCase()) continue;
      const base = extra[ch] ?? ch.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
      if (/^[a-z]$/.test(base)) [from[from.length], to[to.length]] = [ch, base];
    }
  for (let c = 0x300; c <= 0x36f; c++) from.push(String.fromCodePoint(c));
  return [from.join(''), to.join('')];
})();

/**
 * What an attribute compares as: a name without its accents ("josé" and "jose" agree; stored values keep them).
 * `translate` is one character for one in both engines, so ß, æ, œ and þ stay as they are.
 */
export function compareExpr(kind: AttributeKind, value: string): string {
  if (kind !== 'name') return value;
  // only letters beyond ASCII fold: plain ASCII names skip translate (its cost is most of a work table's build)
  return `CASE WHEN regexp_like(${value}, '[^ -~]') THEN translate(${value}, ${lit(FOLD[0])}, ${lit(FOLD[1])}) ELSE ${value} END`;
}

/** Whether a column type can be read as text or a date (everything standardises through STRING). */
export function readableType(type: string): boolean {
  return TEXTUAL.test(type) || TEMPORAL.test(type) || /^(bigint|int|integer|smallint|tinyint|long|decimal)/i.test(type);
}

export interface RecordsTable {
  catalog: string;
  schema: string;
  name: string;
}

/** `<mdm.catalog>.mdm.source_records_<entity_type>`: one table per entity type, one column per attribute. */
export function recordsTable(catalog: string, entityType: string): RecordsTable {
  return { catalog, schema: 'mdm', name: `source_records_${entityType}` };
}

export const tableSql = (t: RecordsTable) => `${ident(t.catalog)}.${ident(t.schema)}.${ident(t.name)}`;

/** The columns of an entity type's source_records table, in order. */
export function recordsColumns(model: MdmModel): { name: string; type: string }[] {
  return [
    { name: 'system', type: 'string' },
    { name: 'record_id', type: 'string' },
    { name: 'trust', type: 'int' },
    { name: 'source_updated_at', type: 'timestamp' },
    ...Object.keys(model.attributes).map((name) => ({ name, type: 'string' })),
    { name: 'row_hash', type: 'string' },
    { name: 'deleted', type: 'boolean' },
    { name: 'ingest_id', type: 'string' },
    { name: 'changed_at', type: 'timestamp' },
    { name: 'ingested_at', type: 'timestamp' },
  ];
}

/** `<mdm.catalog>.mdm.reference_aliases`: (domain, alias, code, valid_from, valid_to), written by reference data. */
export const aliases = (records: RecordsTable): RecordsTable => ({ ...records, name: 'reference_aliases' });

export interface IngestSql {
  /** One read: rows, missing keys, rows without any attribute value, duplicate keys. */
  stats: string;
  /** The one INSERT … SELECT's query: standardised, one row per key (the latest), changed_at carried over. */
  insert: string;
  /** Older rows of this system whose key this ingest wrote again. */
  supersededPredicate: string;
  /** Older rows of this system still live: their keys vanished from the source. */
  vanishedPredicate: string;
  /** Rows of this system written by this ingest (a retried attempt removes its own first). */
  ownPredicate: string;
  /** Counts of this ingest's rows whose values changed (or are new). */
  changed: string;
}

/**
 * The SQL of one source's ingest. `types` maps the source table's columns to their SQL types; `ts` is the ingest
 * time (an ISO timestamp written into changed_at and ingested_at).
 */
export function ingestSql(
  model: MdmModel,
  source: MdmSource,
  types: Record<string, string>,
  target: RecordsTable,
  ingestId: string,
  ts: string,
): IngestSql {
  const attrs = Object.keys(model.attributes);
  const src = source.table_fqn
    .split('.')
    .map((p) => ident(p))
    .join('.');
  const key = `CAST(${ident(source.key_column)} AS STRING)`;
  const hasKey = `${ident(source.key_column)} IS NOT NULL AND trim(${key}) <> ''`;
  const std = attrs.map((a) => {
    const col = source.columns[a];
    return col
      ? `${standardiseExpr(model.attributes[a].kind, col, types[col] ?? 'string')} AS ${ident(a)}`
      : `CAST(NULL AS STRING) AS ${ident(a)}`;
  });
  const mapped = attrs.filter((a) => source.columns[a]);
  const noValues = mapped.length === 0 ? 'TRUE' : mapped.map((a) => `${ident(a)} IS NULL`).join(' AND ');
  const updated = source.updated_at_column
    ? `CAST(${ident(source.updated_at_column)} AS TIMESTAMP)`
    : 'CAST(NULL AS TIMESTAMP)';
  // code attributes: the alias key, then the code it is an alias of on the ingest day (NULL when none)
  const codes = mapped.filter((a) => model.attributes[a].kind === 'code');
  const day = `CAST(${lit(ts.slice(0, 10))} AS DATE)`;
  const codeOf = (a: string) =>
    `(SELECT min(ra.code) FROM ${tableSql(aliases(target))} ra WHERE ra.domain = ${lit(model.attributes[a].domain ?? '')} ` +
    `AND ra.alias = k.${ident(a)} AND (ra.valid_from IS NULL OR ra.valid_from <= ${day}) AND (ra.valid_to IS NULL OR ${day} < ra.valid_to))`;
  const keyed = `SELECT ${key} AS record_id, ${updated} AS source_updated_at, ${std.join(', ')} FROM ${src} WHERE ${hasKey}`;
  const stdRows = codes.length
    ? `SELECT k.record_id, k.source_updated_at, ${attrs
        .map((a) => (codes.includes(a) ? `${codeOf(a)} AS ${ident(a)}` : `k.${ident(a)}`))
        .join(
          ', ',
        )}, ${codes.map((a) => `k.${ident(a)} IS NOT NULL AS ${ident(`${a}__given`)}`).join(', ')} FROM (${keyed}) k`
    : keyed;
  const unknown = codes.length
    ? `(SELECT ${codes.map((a) => `count_if(${ident(`${a}__given`)} AND ${ident(a)} IS NULL)`).join(' + ')} FROM (${stdRows}) s)`
    : '0';
  const stats =
    `SELECT count(*) AS rows_read, count_if(NOT (${hasKey})) AS missing_key, ` +
    `(SELECT count_if(${noValues}) FROM (${stdRows}) s) AS no_values, ` +
    `${unknown} AS unknown_codes, ` +
    `count(${key}) - count(DISTINCT ${key}) AS duplicate_keys FROM ${src}`;
  const sys = lit(source.system);
  const job = lit(ingestId);
  const at = `CAST(${lit(ts)} AS TIMESTAMP)`;
  const order = ['source_updated_at DESC NULLS LAST', ...attrs.map((a) => `${ident(a)} ASC NULLS LAST`)].join(', ');
  const hash = `md5(concat_ws('|', ${[String(source.trust), ...attrs.map((a) => `coalesce(${ident(a)}, '')`)].map((e) => `CAST(${e} AS STRING)`).join(', ')}))`;
  const live = tableSql(target);
  const insert =
    `SELECT ${sys} AS system, n.record_id, ${source.trust} AS trust, n.source_updated_at, ` +
    `${attrs.map((a) => `n.${ident(a)}`).join(', ')}, n.row_hash, FALSE AS deleted, ${job} AS ingest_id, ` +
    `CASE WHEN o.row_hash = n.row_hash AND NOT o.deleted THEN o.changed_at ELSE ${at} END AS changed_at, ` +
    `${at} AS ingested_at FROM (SELECT *, ${hash} AS row_hash FROM (SELECT *, row_number() OVER ` +
    `(PARTITION BY record_id ORDER BY ${order}) AS rn FROM (${stdRows}) s WHERE NOT (${noValues})) r WHERE rn = 1) n ` +
    `LEFT JOIN (SELECT record_id, row_hash, deleted, changed_at FROM ${live} WHERE system = ${sys} AND ingest_id <> ${job}) o ` +
    `ON o.record_id = n.record_id`;
  const own = `system = ${sys} AND ingest_id = ${job}`;
  return {
    stats,
    insert,
    ownPredicate: own,
    supersededPredicate: `system = ${sys} AND ingest_id <> ${job} AND record_id IN (SELECT record_id FROM ${live} WHERE ${own})`,
    vanishedPredicate: `system = ${sys} AND ingest_id <> ${job} AND NOT deleted`,
    changed: `SELECT count_if(changed_at = ${at}) AS changed, count(*) AS written FROM ${live} WHERE ${own}`,
  };
}
