import type { Caller } from '../../schemas/governance';
import type { AppDeps } from '../deps';
import { assertAllowed } from './access';
import { guardUserSql, type OwnTable } from './sql-guard';

/** The parts of a data-quality check that carry user SQL or name another table. */
export interface CheckSqlParts {
  table_fqn: string;
  check_function: string;
  arguments: Record<string, unknown>;
  filter?: string | null;
}

function ownOf(tableFqn: string): OwnTable {
  const [catalog, schema, table] = tableFqn.split('.');
  return { catalog, schema, table };
}

/**
 * A check's user SQL through the guard, as the caller: its `filter` and a `sql_expression`'s expression are
 * predicates on the check's own table (nothing else may be read); a `sql_query`'s query is one SELECT; a reference
 * table (`ref_table` of foreign_key, compare_datasets …) must be readable by the caller. 403 naming the rule.
 */
export async function guardCheckSql(
  deps: Pick<AppDeps, 'store'>,
  caller: Caller,
  check: CheckSqlParts,
  prefix = 'body',
): Promise<void> {
  const own = ownOf(check.table_fqn);
  const args = check.arguments ?? {};
  if (check.filter && check.filter.trim() !== '')
    await guardUserSql(deps, caller, { sql: check.filter, kind: 'predicate', field: `${prefix}.filter`, own });
  if (check.check_function === 'sql_expression' && typeof args.expression === 'string')
    await guardUserSql(deps, caller, {
      sql: args.expression,
      kind: 'predicate',
      field: `${prefix}.arguments.expression`,
      own,
    });
  if (check.check_function === 'sql_query' && typeof args.query === 'string')
    await guardUserSql(deps, caller, {
      // DQX's input placeholder stands for the checked table.
      sql: args.query.replace(/\{\{\s*\w+\s*\}\}/g, check.table_fqn),
      kind: 'query',
      field: `${prefix}.arguments.query`,
      own,
    });
  if (typeof args.ref_table === 'string') {
    const [catalog, schema] = args.ref_table.split('.');
    await assertAllowed(
      deps,
      caller,
      { operation: 'read', source: catalog, schemas: [schema] },
      `${prefix}.arguments.ref_table`,
    );
  }
  await assertAllowed(
    deps,
    caller,
    { operation: 'read', source: own.catalog, schemas: [own.schema!] },
    `${prefix}.table_fqn`,
  );
}
