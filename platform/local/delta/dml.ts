import { InvalidInputError } from '../../errors';
import { duckIdent, withDuck } from '../duck';
import { removeOf, type Action, type AddAction } from './actions';
import { writeChangeFiles } from './cdf-write';
import { commit } from './commit';
import type { CommitContext, DeltaField } from './contract';
import { assertNotAppendOnly, cdfEnabled, schemaOf, sum, type Core } from './core';
import { numRecordsOf } from './actions';
import { resolveLogPath } from './paths';
import { FILE_COLUMN } from './scan';
import { scanOfLogFiles } from './scan-files';
import { duckType } from './schema';
import { asInputError } from './sql-errors';
import type { TableState } from './state';
import { writeDataFiles } from './write-files';

interface Affected {
  add: AddAction;
  matched: number;
}

function scanOf(core: Core, state: TableState, files: AddAction[], withFile = false): Promise<string> {
  return scanOfLogFiles(core.dir, schemaOf(state.metadata), state.metadata.partitionColumns, files, { withFile });
}

/** Files holding at least one row where the predicate is TRUE, with the number of such rows. */
async function affectedFiles(core: Core, state: TableState, predicate: string): Promise<Affected[]> {
  const files = [...state.files.values()];
  const byAbsolute = new Map(files.map((f) => [resolveLogPath(core.dir, f.path), f]));
  const sql = `SELECT ${duckIdent(FILE_COLUMN)} AS f, count(*) AS n FROM ${await scanOf(core, state, files, true)} AS t WHERE (${predicate}) GROUP BY 1`;
  const rows = await withDuck(async (conn) => (await asInputError(() => conn.runAndReadAll(sql))).getRowObjectsJson());
  return rows
    .filter((r) => r.f !== null)
    .map((r) => ({ add: byAbsolute.get(String(r.f))!, matched: Number(r.n) }))
    .filter((a) => a.add !== undefined);
}

function checkPredicate(predicate: string): void {
  if (typeof predicate !== 'string' || predicate.trim() === '')
    throw new InvalidInputError('predicate: must be a non-empty SQL boolean expression');
}

function columnList(schema: DeltaField[]): string {
  return schema.map((f) => duckIdent(f.name)).join(', ');
}

/** DELETE FROM t WHERE p: files with matches are dropped whole or rewritten without the matching rows. */
export async function deleteWhere(
  core: Core,
  predicate: string,
  ctx?: CommitContext,
): Promise<{ version: number; numDeletedRows: number }> {
  checkPredicate(predicate);
  const state = await core.reader.stateAt();
  assertNotAppendOnly(state, 'DELETE');
  const schema = schemaOf(state.metadata);
  const affected = await affectedFiles(core, state, predicate);
  const now = Date.now();
  const partial = affected.filter((a) => numRecordsOf(a.add) !== a.matched).map((a) => a.add);
  const spec = { schema, partitionColumns: state.metadata.partitionColumns, now };
  const kept =
    partial.length === 0
      ? []
      : await writeDataFiles(
          core.dir,
          `SELECT ${columnList(schema)} FROM ${await scanOf(core, state, partial)} AS t WHERE (${predicate}) IS NOT TRUE`,
          spec,
        );
  const all = affected.map((a) => a.add);
  const cdc =
    cdfEnabled(state.metadata) && all.length > 0
      ? await writeChangeFiles(
          core.dir,
          `SELECT ${columnList(schema)}, 'delete' AS _change_type FROM ${await scanOf(core, state, all)} AS t WHERE (${predicate}) IS TRUE`,
          spec,
        )
      : [];
  const numDeletedRows = sum(affected.map((a) => a.matched));
  const actions: Action[] = [
    ...all.map((f) => ({ remove: removeOf(f, now) })),
    ...kept.map((f) => ({ add: f.add })),
    ...cdc,
  ];
  const version = await commit(core.reader, {
    operation: 'DELETE',
    operationParameters: { predicate: JSON.stringify([predicate]) },
    operationMetrics: {
      numRemovedFiles: all.length,
      numAddedFiles: kept.length,
      numDeletedRows,
      numCopiedRows: sum(kept.map((f) => f.numRecords)),
      numAddedChangeFiles: cdc.length,
      numRemovedBytes: sum(all.map((f) => f.size)),
      numAddedBytes: sum(kept.map((f) => f.add.size)),
    },
    readVersion: state.version,
    actions,
    ctx,
  });
  return { version, numDeletedRows };
}

/** UPDATE t SET c = e WHERE p: copy-on-write of the files with matching rows; other files untouched. */
export async function updateWhere(
  core: Core,
  set: Record<string, string>,
  predicate: string,
  ctx?: CommitContext,
): Promise<{ version: number; numUpdatedRows: number }> {
  checkPredicate(predicate);
  const state = await core.reader.stateAt();
  assertNotAppendOnly(state, 'UPDATE');
  const schema = schemaOf(state.metadata);
  const assignments = new Map<string, string>();
  for (const [column, expr] of Object.entries(set ?? {})) {
    const field = schema.find((f) => f.name.toLowerCase() === column.toLowerCase());
    if (!field) throw new InvalidInputError(`set: '${column}' is not a column of the table`);
    if (typeof expr !== 'string' || expr.trim() === '')
      throw new InvalidInputError(`set: expression for '${column}' is empty`);
    assignments.set(field.name, expr);
  }
  if (assignments.size === 0) throw new InvalidInputError('set: at least one column must be assigned');
  const updated = schema
    .map((f) => {
      const expr = assignments.get(f.name);
      const value =
        expr === undefined
          ? duckIdent(f.name)
          : `CASE WHEN (${predicate}) IS TRUE THEN CAST((${expr}) AS ${duckType(f.type)}) ELSE ${duckIdent(f.name)} END`;
      return `${value} AS ${duckIdent(f.name)}`;
    })
    .join(', ');
  const affected = await affectedFiles(core, state, predicate);
  const files = affected.map((a) => a.add);
  const now = Date.now();
  const spec = { schema, partitionColumns: state.metadata.partitionColumns, now };
  const written =
    files.length === 0
      ? []
      : await writeDataFiles(core.dir, `SELECT ${updated} FROM ${await scanOf(core, state, files)} AS t`, spec);
  const scan = files.length === 0 ? '' : await scanOf(core, state, files);
  const cdc =
    cdfEnabled(state.metadata) && files.length > 0
      ? await writeChangeFiles(
          core.dir,
          `SELECT ${columnList(schema)}, 'update_preimage' AS _change_type FROM ${scan} AS t WHERE (${predicate}) IS TRUE ` +
            `UNION ALL SELECT ${updated}, 'update_postimage' AS _change_type FROM ${scan} AS t WHERE (${predicate}) IS TRUE`,
          spec,
        )
      : [];
  const numUpdatedRows = sum(affected.map((a) => a.matched));
  const version = await commit(core.reader, {
    operation: 'UPDATE',
    operationParameters: { predicate: JSON.stringify([predicate]) },
    operationMetrics: {
      numRemovedFiles: files.length,
      numAddedFiles: written.length,
      numUpdatedRows,
      numCopiedRows: sum(written.map((f) => f.numRecords)) - numUpdatedRows,
      numAddedChangeFiles: cdc.length,
      numRemovedBytes: sum(files.map((f) => f.size)),
      numAddedBytes: sum(written.map((f) => f.add.size)),
    },
    readVersion: state.version,
    actions: [...files.map((f) => ({ remove: removeOf(f, now) })), ...written.map((f) => ({ add: f.add })), ...cdc],
    ctx,
  });
  return { version, numUpdatedRows };
}
