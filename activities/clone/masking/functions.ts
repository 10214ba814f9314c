import { InvalidInputError } from '../../../platform/errors';
import type { MaskStrategy } from './pii';

/** A SQL function used as a column mask: `name(v <type>) RETURNS <type> RETURN <body>`. */
export interface MaskFunction {
  name: string;
  parameters: string;
  returnType: string;
  body: string;
}

const STRING_BODIES: Record<MaskStrategy, string> = {
  hash: 'sha2(v, 256)',
  redact: "CASE WHEN v IS NULL THEN NULL ELSE '[REDACTED]' END",
  partial:
    "CASE WHEN v IS NULL THEN NULL WHEN length(v) <= 4 THEN repeat('*', length(v)) ELSE concat(repeat('*', length(v) - 4), substring(v, length(v) - 3)) END",
  email:
    "CASE WHEN v IS NULL THEN NULL WHEN instr(v, '@') > 1 THEN concat(substring(v, 1, 1), '***@', substring(v, instr(v, '@') + 1)) ELSE '***' END",
  null: 'CAST(NULL AS STRING)',
};

const isString = (type: string) => /^(string|varchar(\(\d+\))?|char(\(\d+\))?)$/i.test(type.trim());

/**
 * The mask function for a strategy and column type. Strings support every strategy; other types support
 * `null` and `redact` (the value is removed). Anything else is refused with an error naming the column
 * type, never quietly swapped for another strategy.
 */
export function maskFunctionFor(strategy: MaskStrategy, columnType: string, column: string): MaskFunction {
  const type = columnType.trim().toLowerCase();
  const slug = type.replace(/[^a-z0-9]+/g, '_').replace(/_+$/, '');
  const name = `lakeward_mask_${strategy}_${slug}`;
  if (isString(type)) return { name, parameters: 'v STRING', returnType: 'STRING', body: STRING_BODIES[strategy] };
  if (strategy === 'null' || strategy === 'redact') {
    const upper = type.toUpperCase();
    return { name, parameters: `v ${upper}`, returnType: upper, body: `CAST(NULL AS ${upper})` };
  }
  throw new InvalidInputError(
    `masking ${column}: strategy ${strategy} needs a string column, but ${column} is ${type} (use null or redact)`,
  );
}
