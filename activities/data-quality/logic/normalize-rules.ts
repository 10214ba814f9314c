import { AGGR_TYPES } from './arg-types';
import { isIpv6 } from './compile-row';
import { PII_TYPES } from './pii';
import { parseSchemaDdl } from './schema-ddl';

const IPV4_CIDR = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\/(\d{1,2})$/;
const TIME_INTERVALS = ['minute', 'hour', 'day', 'week', 'month'];

/** Argument rules one function has beyond types: enumerations, formats, mutually required arguments. */
export function functionRules(fn: string, a: Record<string, unknown>): [string, string][] {
  const out: [string, string][] = [];
  const oneOf = (key: string, allowed: readonly string[]) => {
    if (a[key] !== undefined && !allowed.includes(String(a[key]).toLowerCase())) {
      out.push([`arguments.${key}`, `${key} must be one of ${allowed.join(', ')}, got ${JSON.stringify(a[key])}`]);
    }
  };
  if (a.ref_df_name !== undefined) {
    out.push([
      'arguments.ref_df_name',
      'ref_df_name names a Spark DataFrame, which Lakeward cannot see; give ref_table',
    ]);
  }
  if (a.nlp_engine_config !== undefined) {
    out.push(['arguments.nlp_engine_config', 'Lakeward detects PII with built-in detectors, not an NLP engine']);
  }
  oneOf('aggr_type', AGGR_TYPES);
  oneOf('time_interval', TIME_INTERVALS);
  if (fn === 'has_valid_string_case') oneOf('case', ['upper', 'lower']);
  if (fn === 'is_valid_national_id') oneOf('country', ['us', 'gb']);
  if (fn === 'is_valid_country_code') oneOf('code_format', ['alpha-2', 'alpha-3']);
  if (fn === 'is_valid_currency_code') oneOf('code_format', ['alpha-3']);
  if (fn === 'is_valid_language_code') oneOf('code_format', ['alpha-2']);
  if (fn === 'does_not_contain_pii' && Array.isArray(a.entities)) {
    for (const e of a.entities) {
      if (!PII_TYPES.includes(String(e).toLowerCase() as never)) {
        out.push(['arguments.entities', `unknown PII detector ${JSON.stringify(e)}; known: ${PII_TYPES.join(', ')}`]);
      }
    }
  }
  if (fn === 'is_ipv4_address_in_cidr' && typeof a.cidr_block === 'string') {
    const m = IPV4_CIDR.exec(a.cidr_block);
    if (!m || m.slice(1, 5).some((o) => Number(o) > 255) || Number(m[5]) > 32) {
      out.push(['arguments.cidr_block', `cidr_block must be an IPv4 block such as 10.0.0.0/8, got ${a.cidr_block}`]);
    }
  }
  if (fn === 'is_ipv6_address_in_cidr' && typeof a.cidr_block === 'string') {
    const [addr, bits] = a.cidr_block.split('/');
    if (!addr || !isIpv6(addr) || !/^\d{1,3}$/.test(bits ?? '') || Number(bits) > 128) {
      out.push(['arguments.cidr_block', `cidr_block must be an IPv6 block such as 2001:db8::/32, got ${a.cidr_block}`]);
    }
  }
  if (fn === 'regex_match' && typeof a.regex === 'string') {
    try {
      new RegExp(a.regex);
    } catch {
      out.push(['arguments.regex', `regex is not a valid regular expression: ${a.regex}`]);
    }
  }
  for (const key of ['min_limit', 'max_limit', 'limit', 'value']) {
    const v = a[key];
    if (typeof v === 'string' && Number.isNaN(Date.parse(v)) && !/^-?\d+(\.\d+)?$/.test(v)) {
      out.push([`arguments.${key}`, `${key} must be a number or a date/timestamp, got ${JSON.stringify(v)}`]);
    }
  }
  if (fn === 'has_valid_schema') {
    if (a.expected_schema === undefined && a.ref_table === undefined) {
      out.push(['arguments.expected_schema', 'has_valid_schema needs expected_schema or ref_table']);
    }
    if (typeof a.expected_schema === 'string' && !parseSchemaDdl(a.expected_schema)) {
      out.push(['arguments.expected_schema', 'expected_schema must be DDL such as `id INT, name STRING`']);
    }
  }
  if (fn === 'has_valid_json_schema' && typeof a.schema === 'string' && !parseSchemaDdl(a.schema)) {
    out.push(['arguments.schema', 'schema must be DDL such as `a INT, b STRING` or STRUCT<a: INT>']);
  }
  if (['foreign_key', 'aggr_matches_dataset', 'compare_datasets'].includes(fn) && a.ref_table === undefined) {
    out.push(['arguments.ref_table', `${fn} needs ref_table`]);
  }
  if (Array.isArray(a.columns) && Array.isArray(a.ref_columns) && a.columns.length !== a.ref_columns.length) {
    out.push(['arguments.ref_columns', 'ref_columns must have as many columns as columns']);
  }
  return out;
}
