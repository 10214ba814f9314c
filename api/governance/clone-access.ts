import type { CloneRequestInput } from '../../schemas/clone';
import type { Caller } from '../../schemas/governance';
import type { AppDeps } from '../deps';
import { assertAllowed } from './access';
import { guardUserSql, type OwnTable } from './sql-guard';

/** What the access check reads of a clone request (the caller's own fields, before a template adds any). */
type CloneScope = Pick<
  CloneRequestInput,
  | 'source_catalog'
  | 'destination_catalog'
  | 'include_schemas'
  | 'where_clauses'
  | 'target_workspace'
  | 'target_workspaces'
>;

/** Every catalog a clone writes: its destination, or each target workspace's. */
function destinations(o: CloneScope): string[] {
  const targets = o.target_workspaces ?? (o.target_workspace ? [o.target_workspace] : []);
  const named = targets.map((t) => t.destination_catalog ?? o.destination_catalog);
  return [...new Set(named.length > 0 ? named : [o.destination_catalog])];
}

/** The table a where_clauses key names: `schema.table`, `table`, or `*` (every table of the source). */
function ownOf(catalog: string, key: string): OwnTable {
  if (key === '*') return { catalog };
  const dot = key.indexOf('.');
  return dot < 0 ? { catalog, table: key } : { catalog, schema: key.slice(0, dot), table: key.slice(dot + 1) };
}

/**
 * A clone (or sync) request against the access policies, before anything is queued: the operation from its
 * source into each destination (with its include_schemas), then every where_clauses predicate through the
 * user-SQL guard (it may read only its own table, and only what the caller may read). 403 naming the rule.
 */
export async function assertCloneAllowed(
  deps: Pick<AppDeps, 'store'>,
  caller: Caller,
  options: CloneScope,
  operation: 'clone' | 'sync' = 'clone',
): Promise<void> {
  const schemas = options.include_schemas?.length ? { schemas: options.include_schemas } : {};
  for (const destination of destinations(options))
    await assertAllowed(deps, caller, { operation, source: options.source_catalog, destination, ...schemas });
  for (const [key, sql] of Object.entries(options.where_clauses ?? {}))
    await guardUserSql(deps, caller, {
      sql,
      kind: 'predicate',
      field: `body.where_clauses.${key}`,
      own: ownOf(options.source_catalog, key),
    });
}
