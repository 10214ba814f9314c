import { InvalidInputError } from '../../platform/errors';
import { referencedTables, type TableReference } from '../../platform/sql/referenced-tables';
import type { Caller } from '../../schemas/governance';
import type { AppDeps } from '../deps';
import { HttpError } from '../middleware/http-error';
import { assertAllowed } from './access';

/** The table a predicate belongs to (parts it cannot know, such as the schema of a `*` where clause, left out). */
export interface OwnTable {
  catalog: string;
  schema?: string;
  table?: string;
}

export interface UserSql {
  /** The SQL as the caller wrote it. */
  sql: string;
  /** `predicate`: a WHERE condition on `own` (filter, where_clauses, sql_expression); `query`: one SELECT. */
  kind: 'predicate' | 'query';
  /** The request field it came from, for the 4xx details (`body.where_clauses.orders`). */
  field: string;
  /** The predicate's own table; unqualified names resolve against its catalog and schema. */
  own?: OwnTable;
  /** A predicate may read other tables (the request says so, e.g. a foreign-key check's reference table). */
  otherTables?: boolean;
}

const same = (a: string | undefined, b: string | undefined) => !a || !b || a.toLowerCase() === b.toLowerCase();

function resolve(ref: TableReference, own: OwnTable | undefined): TableReference {
  if (ref.catalog) return ref;
  if (ref.schema) return { ...ref, catalog: own?.catalog ?? '' };
  return { catalog: own?.catalog ?? '', schema: own?.schema ?? '', table: ref.table };
}

const fqn = (t: TableReference) => [t.catalog, t.schema, t.table].filter(Boolean).join('.');

function refused(field: string, message: string, rule: string): HttpError {
  return new HttpError(403, 'POLICY_DENIED', `Refused: ${message}`, [{ path: field, message: `rule ${rule}` }]);
}

/**
 * The guard every piece of user SQL passes before the service runs it under its own principal: the SQL is
 * parsed with a real SQL parser (DuckDB's, platform/sql/referenced-tables.ts), and
 * - table functions (`read_parquet('/etc/…')`, `range(…)`) are refused (rule `no-table-functions`);
 * - every table it reads must be readable by the caller under the access policies (`assertAllowed` with
 *   operation `read`; 403 naming the policy and the table);
 * - a predicate may read only its own table unless `otherTables` (rule `own-table-only`).
 * SQL that does not parse is a 400 naming the field. Returns the tables read (fully qualified where known).
 */
export async function guardUserSql(
  deps: Pick<AppDeps, 'store'>,
  caller: Caller,
  input: UserSql,
): Promise<TableReference[]> {
  const own = input.own;
  const text = input.kind === 'predicate' ? `SELECT 1 FROM ${ownRelation(own)} WHERE ${input.sql}` : input.sql;
  let parsed;
  try {
    parsed = await referencedTables(text);
  } catch (err) {
    if (!(err instanceof InvalidInputError)) throw err;
    throw new HttpError(400, 'VALIDATION_ERROR', `${input.field} ${err.message}`, [
      { path: input.field, message: err.message },
    ]);
  }
  if (parsed.tableFunctions.length > 0) {
    const fn = parsed.tableFunctions[0];
    throw refused(
      input.field,
      `${input.field} calls the table function ${fn}; user SQL reads tables only`,
      'no-table-functions',
    );
  }
  // The predicate's own relation is the first reference of the wrapper; what the caller wrote follows.
  const written = (input.kind === 'predicate' ? parsed.tables.slice(1) : parsed.tables).map((t) => resolve(t, own));
  for (const t of written) {
    if (!t.catalog || !t.schema) {
      const message = `names the table ${fqn(t)} without its catalog and schema: write catalog.schema.table`;
      throw new HttpError(400, 'VALIDATION_ERROR', `${input.field} ${message}`, [{ path: input.field, message }]);
    }
    const reason = `${input.field} reads ${fqn(t)}`;
    try {
      await assertAllowed(deps, caller, { operation: 'read', source: t.catalog, schemas: [t.schema] }, input.field);
    } catch (err) {
      if (err instanceof HttpError) throw new HttpError(403, err.code, `${err.message} (${reason})`, err.details);
      throw err;
    }
    const isOwn = own && same(t.catalog, own.catalog) && same(t.schema, own.schema) && same(t.table, own.table);
    if (input.kind === 'predicate' && !input.otherTables && !isOwn) {
      const ownName = own ? fqn({ catalog: own.catalog, schema: own.schema ?? '*', table: own.table ?? '*' }) : '?';
      throw refused(input.field, `${reason}, but a predicate may read only its own table ${ownName}`, 'own-table-only');
    }
  }
  return written;
}

/** The wrapper's FROM, in Databricks quoting like the predicate: the own table when known (it is never run). */
function ownRelation(own: OwnTable | undefined): string {
  const q = (s: string) => `\`${s.replace(/`/g, '``')}\``;
  return [own?.catalog ?? 'own', own?.schema ?? 'own', own?.table ?? 'own'].map(q).join('.');
}
