import { PII_PATTERNS, PII_TYPES, type PiiType } from './pii';
import { canonicalType, parseSchemaDdl } from './schema-ddl';
import { ident, lit, num, scalar } from './sql-text';
import { CODE_LISTS } from './iso-codes';
import { GEO_ROW } from './compile-geo';
import type { DqCheck, TableShape } from './types';

type Args = Record<string, unknown>;
type Cond = (a: Args, t: TableShape) => string;

const col = (a: Args, key = 'column') => ident(String(a[key]));
const str = (a: Args, key = 'column') => `CAST(${col(a, key)} AS STRING)`;
const matches = (text: string, regex: string) => `regexp_like(${text}, ${lit(regex)})`;
const typeOf = (t: TableShape, name: string) =>
  canonicalType(t.columns.find((c) => c.name.toLowerCase() === name.toLowerCase())?.type ?? 'STRING');

/** A limit argument as SQL of the column's kind: numbers as numbers, dates and timestamps cast. */
function limit(a: Args, key: string, t: TableShape): string {
  const v = a[key];
  const type = typeOf(t, String(a.column));
  if (typeof v === 'number') return num(v);
  if (type === 'DATE') return `CAST(${lit(String(v))} AS DATE)`;
  if (type.startsWith('TIMESTAMP')) return `CAST(${lit(String(v))} AS TIMESTAMP)`;
  return /^-?\d+(\.\d+)?$/.test(String(v)) ? String(v) : lit(String(v));
}
const now = (a: Args, key: string) =>
  typeof a[key] === 'string' ? `CAST(${lit(String(a[key]))} AS TIMESTAMP)` : 'current_timestamp()';
const empty = (a: Args) => (a.trim_strings ? `trim(${str(a)}) = ''` : `${str(a)} = ''`);
function inList(a: Args, key: string): string {
  const values = a[key] as unknown[];
  if (a.case_sensitive === false) {
    return `lower(${str(a)}) IN (${values.map((v) => lit(String(v).toLowerCase())).join(', ')})`;
  }
  return `${col(a)} IN (${values.map(scalar).join(', ')})`;
}
function equal(a: Args, t: TableShape): string {
  const v = limit(a, 'value', t);
  const abs = typeof a.abs_tolerance === 'number' ? a.abs_tolerance : 0;
  const rel = typeof a.rel_tolerance === 'number' ? a.rel_tolerance : 0;
  if (!abs && !rel) return `${col(a)} = ${v}`;
  return `abs(${col(a)} - ${v}) <= greatest(${num(abs)}, ${num(rel)} * greatest(abs(${col(a)}), abs(${v})))`;
}
function codeCheck(list: keyof typeof CODE_LISTS): Cond {
  return (a) => {
    const lower = list === 'language';
    const codes = CODE_LISTS[list].map((c) => (lower ? c.toLowerCase() : c));
    const fold = lower ? 'lower' : 'upper';
    const text = a.case_sensitive === false ? `${fold}(${str(a)})` : str(a);
    return `${col(a)} IS NOT NULL AND NOT (${text} IN (${codes.map(lit).join(', ')}))`;
  };
}

/** Luhn over the first card-shaped match: digits reversed, every second one doubled (19 digits at most). */
function luhnFails(text: string): string {
  const d = `reverse(regexp_replace(regexp_extract(${text}, ${lit(PII_PATTERNS.credit_card)}, 0), '[^0-9]', ''))`;
  const terms = Array.from({ length: 19 }, (_, i) => {
    const digit = `coalesce(try_cast(substr(${d}, ${i + 1}, 1) AS INT), 0)`;
    return i % 2 === 1 ? `(${digit} * 2 - CASE WHEN ${digit} > 4 THEN 9 ELSE 0 END)` : digit;
  });
  return `(${terms.join(' + ')}) % 10 = 0`;
}
function pii(a: Args): string {
  const entities = (
    Array.isArray(a.entities) ? a.entities.map((e) => String(e).toLowerCase()) : PII_TYPES
  ) as PiiType[];
  const text = str(a);
  const found = entities.map((e) =>
    e === 'credit_card' ? `(${matches(text, PII_PATTERNS[e])} AND ${luhnFails(text)})` : matches(text, PII_PATTERNS[e]),
  );
  return `${col(a)} IS NOT NULL AND (${found.join(' OR ')})`;
}
function jsonSchema(a: Args): string {
  const fields = parseSchemaDdl(String(a.schema)) ?? [];
  const wrong = fields
    .filter((f) => f.type !== 'STRING' && /^[A-Z]+(\(\d+(,\d+)?\))?$/.test(f.type))
    .map((f) => {
      const v = `get_json_object(${str(a)}, ${lit('$.' + f.name)})`;
      return `(${v} IS NOT NULL AND try_cast(${v} AS ${f.type}) IS NULL)`;
    });
  return `${col(a)} IS NOT NULL AND (try_parse_json(${str(a)}) IS NULL${wrong.map((w) => ` OR ${w}`).join('')})`;
}
const IPV4_OCTET = '(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])';
const IPV4 = `^${IPV4_OCTET}(\\.${IPV4_OCTET}){3}$`;
const H = '[0-9A-Fa-f]{1,4}';
const IPV6 =
  `^((${H}:){7}${H}|(${H}:){1,7}:|(${H}:){1,6}:${H}|(${H}:){1,5}(:${H}){1,2}|(${H}:){1,4}(:${H}){1,3}|` +
  `(${H}:){1,3}(:${H}){1,4}|(${H}:){1,2}(:${H}){1,5}|${H}:(:${H}){1,6}|:((:${H}){1,7}|:))$`;
function ipv4InCidr(a: Args): string {
  const [addr, bits] = String(a.cidr_block).split('/');
  const base = addr.split('.').reduce((n, o) => n * 256 + Number(o), 0);
  const size = 2 ** (32 - Number(bits));
  const value = [1, 2, 3, 4]
    .map((i, k) => `CAST(split_part(${str(a)}, '.', ${i}) AS BIGINT) * ${256 ** (3 - k)}`)
    .join(' + ');
  return `${col(a)} IS NOT NULL AND (NOT ${matches(str(a), IPV4)} OR floor((${value}) / ${size}) <> ${Math.floor(base / size)})`;
}
/** Whether a text is an IPv6 address in the form the SQL check accepts. */
export const isIpv6 = (s: string) => new RegExp(IPV6).test(s);
/** `2001:db8::1` → its 32 hex digits (the address must already match IPV6). */
export function ipv6Hex(addr: string): string {
  const lower = addr.toLowerCase();
  const [left, right = ''] = lower.includes('::') ? lower.split('::') : [lower, ''];
  const groups = (s: string) => (s === '' ? [] : s.split(':'));
  const l = groups(left);
  const r = groups(right);
  const all = [...l, ...Array<string>(8 - l.length - r.length).fill('0'), ...r];
  return all.map((g) => g.padStart(4, '0')).join('');
}
/**
 * The same expansion in SQL (Databricks and DuckDB both have split_part, repeat, lpad): the part before `::`,
 * the missing groups as `0:`, the part after; then each of the 8 groups padded to 4 hex digits.
 */
function ipv6HexSql(text: string): string {
  const s = `lower(${text})`;
  const has = `instr(${s}, '::') > 0`;
  const left = `CASE WHEN ${has} THEN split_part(${s}, '::', 1) ELSE ${s} END`;
  const right = `CASE WHEN ${has} THEN split_part(${s}, '::', 2) ELSE '' END`;
  const count = (part: string) =>
    `CASE WHEN ${part} = '' THEN 0 ELSE length(${part}) - length(replace(${part}, ':', '')) + 1 END`;
  const full =
    `concat(${left}, CASE WHEN ${left} = '' THEN '' ELSE ':' END, ` +
    `repeat('0:', greatest(8 - (${count(left)}) - (${count(right)}), 0)), ${right})`;
  return `concat(${[1, 2, 3, 4, 5, 6, 7, 8].map((i) => `lpad(split_part(${full}, ':', ${i}), 4, '0')`).join(', ')})`;
}
function ipv6InCidr(a: Args): string {
  const [addr, bits] = String(a.cidr_block).split('/');
  const prefix = ipv6Hex(addr);
  const n = Number(bits);
  const whole = Math.floor(n / 4);
  const rest = n % 4;
  const hex = ipv6HexSql(str(a));
  const outside: string[] = [];
  if (whole > 0) outside.push(`substr(${hex}, 1, ${whole}) <> ${lit(prefix.slice(0, whole))}`);
  if (rest > 0) {
    // The partial nibble: its top `rest` bits must equal the block's.
    const nibble = `instr('0123456789abcdef', substr(${hex}, ${whole + 1}, 1)) - 1`;
    const want = Math.floor(parseInt(prefix[whole], 16) / 2 ** (4 - rest));
    outside.push(`floor((${nibble}) / ${2 ** (4 - rest)}) <> ${want}`);
  }
  const inside = outside.length ? ` OR ${outside.join(' OR ')}` : '';
  return `${col(a)} IS NOT NULL AND (NOT ${matches(str(a), IPV6)}${inside})`;
}
function ssn(a: Args): string {
  const d = `regexp_replace(${str(a)}, '-', '')`;
  return (
    `${col(a)} IS NOT NULL AND (NOT ${matches(str(a), '^[0-9]{3}-?[0-9]{2}-?[0-9]{4}$')} OR substr(${d}, 1, 3) IN ('000', '666') ` +
    `OR substr(${d}, 1, 1) = '9' OR substr(${d}, 4, 2) = '00' OR substr(${d}, 6, 4) = '0000')`
  );
}
const notNullAnd = (a: Args, cond: string) => `${col(a)} IS NOT NULL AND ${cond}`;
const latLon = (a: Args, max: number) =>
  notNullAnd(a, `(try_cast(${col(a)} AS DOUBLE) IS NULL OR abs(try_cast(${col(a)} AS DOUBLE)) > ${max})`);

/** Per DQX row function: a Databricks SQL predicate that is TRUE when the row FAILS the check. */
export const ROW_CONDITIONS: Record<string, Cond> = {
  is_not_null: (a) => `${col(a)} IS NULL`,
  is_null: (a) => `${col(a)} IS NOT NULL`,
  is_not_empty: (a) => empty(a),
  is_empty: (a) => `${col(a)} IS NOT NULL AND NOT (${empty(a)})`,
  is_not_null_and_not_empty: (a) => `${col(a)} IS NULL OR ${empty(a)}`,
  is_null_or_empty: (a) => `${col(a)} IS NOT NULL AND NOT (${empty(a)})`,
  is_in_list: (a) => `${col(a)} IS NOT NULL AND NOT (${inList(a, 'allowed')})`,
  is_not_in_list: (a) => `${col(a)} IS NOT NULL AND ${inList(a, 'forbidden')}`,
  is_not_null_and_is_in_list: (a) => `${col(a)} IS NULL OR NOT (${inList(a, 'allowed')})`,
  is_not_null_and_not_empty_array: (a) => `${col(a)} IS NULL OR size(${col(a)}) = 0`,
  is_in_range: (a, t) => `${col(a)} < ${limit(a, 'min_limit', t)} OR ${col(a)} > ${limit(a, 'max_limit', t)}`,
  is_not_in_range: (a, t) => `${col(a)} >= ${limit(a, 'min_limit', t)} AND ${col(a)} <= ${limit(a, 'max_limit', t)}`,
  is_equal_to: (a, t) => `NOT (${equal(a, t)})`,
  is_not_equal_to: (a, t) => equal(a, t),
  is_not_less_than: (a, t) => `${col(a)} < ${limit(a, 'limit', t)}`,
  is_not_greater_than: (a, t) => `${col(a)} > ${limit(a, 'limit', t)}`,
  is_valid_date: (a) =>
    notNullAnd(
      a,
      a.date_format
        ? `try_to_timestamp(${str(a)}, ${lit(String(a.date_format))}) IS NULL`
        : `try_cast(${str(a)} AS DATE) IS NULL`,
    ),
  is_valid_timestamp: (a) =>
    notNullAnd(
      a,
      a.timestamp_format
        ? `try_to_timestamp(${str(a)}, ${lit(String(a.timestamp_format))}) IS NULL`
        : `try_cast(${str(a)} AS TIMESTAMP) IS NULL`,
    ),
  is_valid_json: (a) => notNullAnd(a, `try_parse_json(${str(a)}) IS NULL`),
  has_json_keys: (a) => {
    const keys = (a.keys as unknown[]).map((k) => `array_contains(json_object_keys(${str(a)}), ${lit(String(k))})`);
    return notNullAnd(
      a,
      `(try_parse_json(${str(a)}) IS NULL OR NOT (${keys.join(a.require_all === false ? ' OR ' : ' AND ')}))`,
    );
  },
  has_valid_json_schema: jsonSchema,
  regex_match: (a) => notNullAnd(a, `${a.negate ? '' : 'NOT '}${matches(str(a), String(a.regex))}`),
  is_valid_email: (a) => notNullAnd(a, `NOT ${matches(str(a), '^[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\\.[A-Za-z]{2,}$')}`),
  has_valid_string_case: (a) =>
    `${str(a)} <> ${String(a.case).toLowerCase() === 'upper' ? 'upper' : 'lower'}(${str(a)})`,
  is_valid_national_id: (a) =>
    String(a.country).toUpperCase() === 'US'
      ? ssn(a)
      : notNullAnd(a, `NOT ${matches(str(a), '^[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z][0-9]{6}[A-D]$')}`),
  is_valid_uuid: (a) =>
    notNullAnd(
      a,
      `NOT ${matches(str(a), a.strict ? '^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$' : '^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$')}`,
    ),
  is_valid_country_code: (a) => codeCheck(a.code_format === 'alpha-3' ? 'country3' : 'country2')(a, { columns: [] }),
  is_valid_currency_code: codeCheck('currency'),
  is_valid_language_code: codeCheck('language'),
  is_valid_subdivision_code: (a) => {
    const text = a.case_sensitive === false ? `upper(${str(a)})` : str(a);
    const country = a.country_column
      ? ` OR substr(${text}, 1, 2) <> upper(CAST(${col(a, 'country_column')} AS STRING))`
      : '';
    const codes = CODE_LISTS.country2.map(lit).join(', ');
    return notNullAnd(
      a,
      `(NOT ${matches(text, '^[A-Z]{2}-[A-Z0-9]{1,3}$')} OR NOT (substr(${text}, 1, 2) IN (${codes}))${country})`,
    );
  },
  is_valid_ipv4_address: (a) => notNullAnd(a, `NOT ${matches(str(a), IPV4)}`),
  is_ipv4_address_in_cidr: ipv4InCidr,
  is_valid_ipv6_address: (a) => notNullAnd(a, `NOT ${matches(str(a), IPV6)}`),
  is_ipv6_address_in_cidr: ipv6InCidr,
  is_not_in_future: (a) => `${col(a)} > ${now(a, 'curr_timestamp')} + INTERVAL ${Number(a.offset ?? 0)} SECOND`,
  is_not_in_near_future: (a) =>
    `${col(a)} > ${now(a, 'curr_timestamp')} AND ${col(a)} < ${now(a, 'curr_timestamp')} + INTERVAL ${Number(a.offset)} SECOND`,
  is_older_than_n_days: (a) => {
    const today = typeof a.curr_date === 'string' ? `CAST(${lit(a.curr_date)} AS DATE)` : 'current_date()';
    return `datediff(${today}, ${col(a)}) ${a.negate ? '>=' : '<'} ${Number(a.days)}`;
  },
  is_older_than_col2_for_n_days: (a) =>
    `datediff(${col(a, 'column2')}, ${col(a, 'column1')}) ${a.negate ? '>=' : '<'} ${Number(a.days)}`,
  is_data_fresh: (a) => `${col(a)} < ${now(a, 'base_timestamp')} - INTERVAL ${Number(a.max_age_minutes)} MINUTE`,
  sql_expression: (a) => (a.negate ? `(${String(a.expression)})` : `NOT (${String(a.expression)})`),
  does_not_contain_pii: pii,
  is_latitude: (a) => latLon(a, 90),
  is_longitude: (a) => latLon(a, 180),
  ...GEO_ROW,
};

/**
 * The failing-row predicate of one row-level check, scoped by its filter. It may be NULL (a NULL operand, a
 * NULL filter), and NULL means "does not fail": every consumer only asks whether it is TRUE (count_if, OR-ed
 * in a WHERE or count_if, CASE WHEN), so no coalesce is spent per row and check.
 */
export function rowFailure(check: DqCheck, table: TableShape): string {
  const cond = ROW_CONDITIONS[check.check_function];
  if (!cond) throw new Error(`${check.check_function} is not a row-level check`);
  const fails = `(${cond(check.arguments, table)})`;
  return check.filter ? `((${check.filter}) AND ${fails})` : fails;
}
