import { z } from 'zod';
import type { ArgType } from './types';

const scalar = z.union([z.string(), z.number().finite(), z.boolean()]);
const name = z.string().trim().min(1);

/** Zod schema per argument type: what a value must look like before the compiler sees it. */
export const ARG_SCHEMAS: Record<ArgType, z.ZodType> = {
  column: name,
  columns: z.array(name).min(1),
  string: z.string(),
  number: z.number().finite(),
  integer: z.number().int(),
  boolean: z.boolean(),
  list: z.array(scalar.nullable()).min(1),
  object: z.record(z.string(), z.unknown()),
  table: name,
  sql_expression: z.string().trim().min(1),
  sql_query: z.string().trim().min(1),
  aggr_type: z.string(),
  limit: z.union([z.number().finite(), z.string().trim().min(1)]),
};

export const ARG_TYPE_TEXT: Record<ArgType, string> = {
  column: 'a column name',
  columns: 'a list of column names',
  string: 'a string',
  number: 'a number',
  integer: 'an integer',
  boolean: 'true or false',
  list: 'a non-empty list of values',
  object: 'an object',
  table: 'a table name catalog.schema.table',
  sql_expression: 'a SQL expression',
  sql_query: 'a SQL query',
  aggr_type: 'an aggregate name',
  limit: 'a number or a date/timestamp string',
};

/** DQX aggr_type values Lakeward compiles (DQX also takes any built-in aggregate; these are the documented ones). */
export const AGGR_TYPES = [
  'count',
  'sum',
  'avg',
  'min',
  'max',
  'count_distinct',
  'approx_count_distinct',
  'stddev',
  'stddev_pop',
  'variance',
  'var_pop',
  'median',
  'mode',
  'skewness',
  'kurtosis',
  'percentile',
  'approx_percentile',
] as const;
