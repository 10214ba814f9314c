import type { CheckInput } from './normalize';

/**
 * Great Expectations suite JSON (`{expectation_suite_name, expectations: [{expectation_type, kwargs}]}`, also GX 1.x
 * `{name, expectations: [{type, kwargs}]}`) mapped to engine checks. The common expectations map one to one;
 * anything else is listed as unsupported with a reason, never dropped silently.
 */

export interface GxExpectation {
  expectation_type: string;
  kwargs: Record<string, unknown>;
}

export interface MappedExpectation extends GxExpectation {
  /** The engine checks this expectation compiles to (one, except column existence which reads the table's schema). */
  checks: CheckInput[];
}

export interface UnsupportedExpectation extends GxExpectation {
  reason: string;
}

export interface GxSuite {
  name: string | null;
  expectations: MappedExpectation[];
  unsupported: UnsupportedExpectation[];
}

export const SUPPORTED_EXPECTATIONS = [
  'expect_column_values_to_not_be_null',
  'expect_column_values_to_be_in_set',
  'expect_column_values_to_be_between',
  'expect_column_values_to_match_regex',
  'expect_column_values_to_be_unique',
  'expect_compound_columns_to_be_unique',
  'expect_table_row_count_to_be_between',
  'expect_column_to_exist',
] as const;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** Placeholder the row-count check's query uses for the checked table. */
const INPUT = 'lw_input';

function mapOne(e: GxExpectation, index: number): CheckInput[] | string {
  const k = e.kwargs;
  const column = typeof k.column === 'string' ? k.column : undefined;
  const name = `${index + 1}_${e.expectation_type}${column ? `_${column}` : ''}`;
  const needColumn = () => (column ? null : 'kwargs.column is required');
  switch (e.expectation_type) {
    case 'expect_column_values_to_not_be_null':
      return needColumn() ?? [{ name, check_function: 'is_not_null', arguments: { column } }];
    case 'expect_column_values_to_be_in_set':
      if (!Array.isArray(k.value_set)) return 'kwargs.value_set must be a list';
      return needColumn() ?? [{ name, check_function: 'is_in_list', arguments: { column, allowed: k.value_set } }];
    case 'expect_column_values_to_be_between': {
      const min = num(k.min_value);
      const max = num(k.max_value);
      if (min === undefined && max === undefined) return 'kwargs.min_value or kwargs.max_value (a number) is required';
      if (k.strict_min || k.strict_max) return 'strict_min / strict_max are not supported';
      const args =
        min !== undefined && max !== undefined
          ? { check_function: 'is_in_range', arguments: { column, min_limit: min, max_limit: max } }
          : min !== undefined
            ? { check_function: 'is_not_less_than', arguments: { column, limit: min } }
            : { check_function: 'is_not_greater_than', arguments: { column, limit: max } };
      return needColumn() ?? [{ name, ...args }];
    }
    case 'expect_column_values_to_match_regex':
      if (typeof k.regex !== 'string') return 'kwargs.regex must be a string';
      return needColumn() ?? [{ name, check_function: 'regex_match', arguments: { column, regex: k.regex } }];
    case 'expect_column_values_to_be_unique':
      return needColumn() ?? [{ name, check_function: 'is_unique', arguments: { columns: [column] } }];
    case 'expect_compound_columns_to_be_unique':
      if (!Array.isArray(k.column_list) || k.column_list.length === 0) return 'kwargs.column_list must be a list';
      return [{ name, check_function: 'is_unique', arguments: { columns: k.column_list } }];
    case 'expect_table_row_count_to_be_between': {
      const min = num(k.min_value);
      const max = num(k.max_value);
      if (min === undefined && max === undefined) return 'kwargs.min_value or kwargs.max_value (a number) is required';
      const outside = [min !== undefined ? `count(*) < ${min}` : null, max !== undefined ? `count(*) > ${max}` : null]
        .filter(Boolean)
        .join(' OR ');
      return [
        {
          name,
          check_function: 'sql_query',
          arguments: {
            query: `SELECT (${outside}) AS lw_outside FROM {{${INPUT}}}`,
            input_placeholder: INPUT,
            condition_column: 'lw_outside',
          },
        },
      ];
    }
    case 'expect_column_to_exist':
      // has_valid_schema with this one column; the type is filled in from the table at validation (existence only).
      return (
        needColumn() ?? [
          { name, check_function: 'has_valid_schema', arguments: { expected_schema: `${column} STRING` } },
        ]
      );
    default:
      return `not supported (supported: ${SUPPORTED_EXPECTATIONS.join(', ')})`;
  }
}

/** Parses a GX suite document; throws with a message naming the field when it is not one. */
export function parseGxSuite(doc: unknown): GxSuite {
  if (!isObject(doc)) throw new Error('suite must be a JSON object');
  const list = doc.expectations;
  if (!Array.isArray(list)) throw new Error('expectations must be a list');
  const expectations: MappedExpectation[] = [];
  const unsupported: UnsupportedExpectation[] = [];
  list.forEach((raw, i) => {
    if (!isObject(raw)) {
      unsupported.push({ expectation_type: '', kwargs: {}, reason: `expectations[${i}] is not an object` });
      return;
    }
    const type =
      typeof raw.expectation_type === 'string' ? raw.expectation_type : typeof raw.type === 'string' ? raw.type : '';
    const kwargs = isObject(raw.kwargs) ? raw.kwargs : {};
    const e = { expectation_type: type, kwargs };
    if (!type) {
      unsupported.push({ ...e, reason: `expectations[${i}] has no expectation_type` });
      return;
    }
    const mapped = mapOne(e, i);
    if (typeof mapped === 'string') unsupported.push({ ...e, reason: mapped });
    else expectations.push({ ...e, checks: mapped });
  });
  const name =
    typeof doc.expectation_suite_name === 'string'
      ? doc.expectation_suite_name
      : typeof doc.name === 'string'
        ? doc.name
        : null;
  return { name, expectations, unsupported };
}

/** A column-existence check resolved against the table: the column's own type (so only existence is tested). */
export function resolveExistence(check: CheckInput, columns: { name: string; type: string }[]): CheckInput {
  if (check.check_function !== 'has_valid_schema') return check;
  const expected = String(check.arguments?.expected_schema ?? '');
  const col = expected.slice(0, expected.lastIndexOf(' '));
  const found = columns.find((c) => c.name.toLowerCase() === col.toLowerCase());
  return { ...check, arguments: { ...check.arguments, expected_schema: `${col} ${found?.type ?? 'STRING'}` } };
}

export const htmlEscape = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

export interface ExpectationResult {
  expectation_type: string;
  kwargs: Record<string, unknown>;
  success: boolean;
  unexpected_count: number;
  element_count: number;
  unexpected_percent: number;
  error?: string | null;
}

export interface SuiteValidation {
  suite_name: string;
  table_fqn: string;
  success: boolean;
  run_time: string;
  statistics: {
    evaluated_expectations: number;
    successful_expectations: number;
    unsuccessful_expectations: number;
    success_percent: number;
  };
  total_rows: number;
  invalid_rows: number;
  pass_rate: number;
  results: ExpectationResult[];
}

/** The Data Docs page of a validation: one self-contained HTML document. */
export function validationHtml(v: SuiteValidation): string {
  const rows = v.results
    .map(
      (r) =>
        `<tr class="${r.success ? 'pass' : 'fail'}"><td>${htmlEscape(r.expectation_type)}</td>` +
        `<td><code>${htmlEscape(JSON.stringify(r.kwargs))}</code></td><td>${r.success ? 'passed' : 'failed'}</td>` +
        `<td>${r.unexpected_count}</td><td>${r.element_count}</td><td>${r.unexpected_percent}</td></tr>`,
    )
    .join('\n');
  const s = v.statistics;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${htmlEscape(`Validation of ${v.suite_name}`)}</title>
<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:4px 8px}tr.fail td{background:#fdd}tr.pass td{background:#dfd}</style>
</head>
<body>
<h1>${htmlEscape(v.suite_name)}</h1>
<p>Table <code>${htmlEscape(v.table_fqn)}</code>, validated ${htmlEscape(v.run_time)}: <strong>${v.success ? 'passed' : 'failed'}</strong></p>
<p>${s.successful_expectations} of ${s.evaluated_expectations} expectations met (${s.success_percent}%); ${v.invalid_rows} of ${v.total_rows} rows invalid (pass rate ${v.pass_rate}%).</p>
<table>
<thead><tr><th>expectation</th><th>kwargs</th><th>result</th><th>unexpected</th><th>rows</th><th>unexpected %</th></tr></thead>
<tbody>
${rows}
</tbody>
</table>
</body>
</html>
`;
}
