import { toSchemaDdl, type DdlField } from './schema-ddl';
import type { DqCheck } from './types';

/** `has_valid_schema` checks that compare with another table (ref_table, no expected_schema). */
const comparesWithTable = (c: DqCheck) =>
  c.check_function === 'has_valid_schema' &&
  typeof c.arguments.ref_table === 'string' &&
  c.arguments.expected_schema === undefined;

/** The reference tables whose columns a run must read before it compiles its checks. */
export function referenceSchemaTables(checks: DqCheck[]): string[] {
  return [...new Set(checks.filter(comparesWithTable).map((c) => String(c.arguments.ref_table)))];
}

/**
 * Each `has_valid_schema` check against a ref_table gets that table's columns as its expected_schema (read at
 * run time, so the check follows the reference table as it changes); other checks are returned unchanged.
 */
export function withReferenceSchemas(checks: DqCheck[], columnsOf: Record<string, DdlField[]>): DqCheck[] {
  return checks.map((c) => {
    if (!comparesWithTable(c)) return c;
    const columns = columnsOf[String(c.arguments.ref_table)];
    if (!columns) throw new Error(`the columns of ${String(c.arguments.ref_table)} were not read`);
    return { ...c, arguments: { ...c.arguments, expected_schema: toSchemaDdl(columns) } };
  });
}
