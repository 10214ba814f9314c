import { spec, type Spec } from './catalog-spec';

/** DQX row-level functions (databrickslabs/dqx docs "quality_checks"), with DQX's argument names. */
const TRIM = 'trim_strings:boolean - trim whitespace before testing for empty';
const CASE = 'case_sensitive:boolean - compare case-sensitively (default true)';

export const ROW_FUNCTIONS: Spec[] = [
  spec('is_not_null', 'null', 'row', 'Value is not null', ['column!:column']),
  spec('is_null', 'null', 'row', 'Value is null', ['column!:column']),
  spec('is_not_empty', 'null', 'row', 'Value is not an empty string', ['column!:column', TRIM]),
  spec('is_empty', 'null', 'row', 'Value is null or an empty string', ['column!:column', TRIM]),
  spec('is_not_null_and_not_empty', 'null', 'row', 'Value is neither null nor empty', ['column!:column', TRIM]),
  spec('is_null_or_empty', 'null', 'row', 'Value is null or an empty string', ['column!:column', TRIM]),
  spec('is_in_list', 'value', 'row', 'Value (when not null) is one of the allowed values', [
    'column!:column',
    'allowed!:list - allowed values',
    CASE,
  ]),
  spec('is_not_in_list', 'value', 'row', 'Value is none of the forbidden values', [
    'column!:column',
    'forbidden!:list - forbidden values',
    CASE,
  ]),
  spec('is_not_null_and_is_in_list', 'value', 'row', 'Value is not null and one of the allowed values', [
    'column!:column',
    'allowed!:list - allowed values',
    CASE,
  ]),
  spec('is_not_null_and_not_empty_array', 'null', 'row', 'Array is neither null nor empty', ['column!:column']),
  spec('is_in_range', 'range', 'row', 'min_limit <= value <= max_limit', [
    'column!:column',
    'min_limit!:limit',
    'max_limit!:limit',
  ]),
  spec('is_not_in_range', 'range', 'row', 'Value is below min_limit or above max_limit', [
    'column!:column',
    'min_limit!:limit',
    'max_limit!:limit',
  ]),
  spec('is_equal_to', 'value', 'row', 'Value equals value (within tolerances)', [
    'column!:column',
    'value!:limit',
    'abs_tolerance:number',
    'rel_tolerance:number',
  ]),
  spec('is_not_equal_to', 'value', 'row', 'Value differs from value (beyond tolerances)', [
    'column!:column',
    'value!:limit',
    'abs_tolerance:number',
    'rel_tolerance:number',
  ]),
  spec('is_not_less_than', 'range', 'row', 'Value >= limit', ['column!:column', 'limit!:limit']),
  spec('is_not_greater_than', 'range', 'row', 'Value <= limit', ['column!:column', 'limit!:limit']),
  spec('is_valid_date', 'format', 'row', 'String parses as a date', [
    'column!:column',
    'date_format:string - Spark pattern, e.g. yyyy-MM-dd',
  ]),
  spec('is_valid_timestamp', 'format', 'row', 'String parses as a timestamp', [
    'column!:column',
    'timestamp_format:string - Spark pattern, e.g. yyyy-MM-dd HH:mm:ss',
  ]),
  spec('is_valid_json', 'format', 'row', 'String is valid JSON', ['column!:column']),
  spec('has_json_keys', 'format', 'row', 'JSON object has the keys', [
    'column!:column',
    'keys!:list - key names',
    'require_all:boolean - all keys (default) or any',
  ]),
  spec('has_valid_json_schema', 'format', 'row', 'JSON fields have the declared types', [
    'column!:column',
    'schema!:string - DDL such as `a INT, b STRING` or STRUCT<...>',
  ]),
  spec('regex_match', 'format', 'row', 'Value matches the regular expression', [
    'column!:column',
    'regex!:string',
    'negate:boolean - fail rows that match instead',
  ]),
  spec('is_valid_email', 'format', 'row', 'Value is an e-mail address', ['column!:column']),
  spec('has_valid_string_case', 'format', 'row', 'Value is all upper or all lower case', [
    'column!:column',
    'case!:string - upper or lower',
  ]),
  spec('is_valid_national_id', 'format', 'row', 'Value is a national id of the country', [
    'column!:column',
    'country!:string - US (SSN) or GB (NINO)',
  ]),
  spec('is_valid_uuid', 'format', 'row', 'Value is a UUID', [
    'column!:column',
    'strict:boolean - lower-case hyphenated only',
  ]),
  spec('is_valid_country_code', 'format', 'row', 'Value is an ISO 3166-1 country code', [
    'column!:column',
    'code_format:string - alpha-2 (default) or alpha-3',
    CASE,
  ]),
  spec('is_valid_currency_code', 'format', 'row', 'Value is an ISO 4217 currency code', [
    'column!:column',
    'code_format:string - alpha-3',
    CASE,
  ]),
  spec('is_valid_language_code', 'format', 'row', 'Value is an ISO 639-1 language code', [
    'column!:column',
    'code_format:string - alpha-2',
    CASE,
  ]),
  spec(
    'is_valid_subdivision_code',
    'format',
    'row',
    'Value is shaped as an ISO 3166-2 code (country-subdivision, e.g. US-CA)',
    ['column!:column', CASE, 'country_column:column - the code must start with this column’s country'],
  ),
  spec('is_valid_ipv4_address', 'format', 'row', 'Value is an IPv4 address', ['column!:column']),
  spec('is_ipv4_address_in_cidr', 'format', 'row', 'IPv4 address is inside the block', [
    'column!:column',
    'cidr_block!:string - e.g. 10.0.0.0/8',
  ]),
  spec('is_valid_ipv6_address', 'format', 'row', 'Value is an IPv6 address', ['column!:column']),
  spec('is_ipv6_address_in_cidr', 'format', 'row', 'IPv6 address is inside the block', [
    'column!:column',
    'cidr_block!:string - e.g. 2001:db8::/32',
  ]),
  spec('is_not_in_future', 'temporal', 'row', 'Timestamp is not after now + offset seconds', [
    'column!:column',
    'offset:integer - seconds',
    'curr_timestamp:string - reference instead of now',
  ]),
  spec('is_not_in_near_future', 'temporal', 'row', 'Timestamp is not between now and now + offset seconds', [
    'column!:column',
    'offset!:integer - seconds',
    'curr_timestamp:string - reference instead of now',
  ]),
  spec('is_older_than_n_days', 'temporal', 'row', 'Date is at least days before the current date', [
    'column!:column',
    'days!:integer',
    'curr_date:string - reference instead of today',
    'negate:boolean',
  ]),
  spec('is_older_than_col2_for_n_days', 'temporal', 'row', 'column1 is at least days before column2', [
    'column1!:column',
    'column2!:column',
    'days!:integer',
    'negate:boolean',
  ]),
  spec('is_data_fresh', 'temporal', 'row', 'Timestamp is at most max_age_minutes old', [
    'column!:column',
    'max_age_minutes!:integer',
    'base_timestamp:string - reference instead of now',
  ]),
  spec('sql_expression', 'custom', 'row', 'Row passes when the SQL expression is true', [
    'expression!:sql_expression - one read-only boolean expression',
    'msg:string',
    'name:string',
    'negate:boolean - pass when false instead',
    'columns:columns - columns the expression reads',
  ]),
  spec('does_not_contain_pii', 'security', 'row', 'Value contains no e-mail, phone, SSN, card, IBAN or IP', [
    'column!:column',
    'threshold:number - accepted for DQX compatibility; detectors are exact',
    'language:string - accepted for DQX compatibility (en)',
    'entities:list - detectors to use: email, phone, us_ssn, credit_card, iban, ip_address',
    'nlp_engine_config:object - not supported: built-in detectors only',
  ]),
];
