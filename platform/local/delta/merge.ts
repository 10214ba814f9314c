import { InvalidInputError } from '../../errors';
import { duckIdent, withDuck } from '../duck';
import { removeOf, type Action, type AddAction } from './actions';
import { writeChangeFiles } from './cdf-write';
import { commit } from './commit';
import type { CommitContext, DeltaField } from './contract';
import { assertNotAppendOnly, cdfEnabled, schemaOf, sum, type Core } from './core';
import { resolveLogPath } from './paths';
import { FILE_COLUMN } from './scan';
import { scanOfLogFiles } from './scan-files';
import { asInputError } from './sql-errors';
import { writeDataFiles } from './write-files';

/** Column of a merge source that says what to do with its row's key: 'upsert' or 'delete'. */
export const MERGE_ACTION_COLUMN = '_lakeward_merge';

export interface MergeRowsResult {
  /** The new version, or null when the source was empty (nothing committed). */
  version: number | null;
  numInsertedRows: number;
  numUpdatedRows: number;
  numDeletedRows: number;
}

function columnList(schema: DeltaField[], alias: string): string {
  return schema.map((f) => `${alias}.${duckIdent(f.name)}`).join(', ');
}

/**
 * MERGE INTO t USING source ON keys: WHEN MATCHED AND delete THEN DELETE, WHEN MATCHED THEN UPDATE SET *,
 * WHEN NOT MATCHED AND upsert THEN INSERT *. `sourceSql` returns the table's columns plus MERGE_ACTION_COLUMN,
 * at most one row per key. One commit: the files holding matched rows are rewritten without them, the upserted
 * rows are added (and, with change data feed on, the change rows written).
 */
export async function mergeRows(
  core: Core,
  sourceSql: string,
  keys: string[],
  ctx?: CommitContext,
): Promise<MergeRowsResult> {
  const state = await core.reader.stateAt();
  assertNotAppendOnly(state, 'MERGE');
  const schema = schemaOf(state.metadata);
  const keyFields = keys.map((k) => {
    const f = schema.find((x) => x.name === k);
    if (!f) throw new InvalidInputError(`keys: '${k}' is not a column of the table`);
    return f;
  });
  if (keyFields.length === 0) throw new InvalidInputError('keys: at least one key column is required');
  const src = `(${sourceSql})`;
  const act = duckIdent(MERGE_ACTION_COLUMN);
  const on = (a: string, b: string) =>
    keyFields.map((f) => `${a}.${duckIdent(f.name)} = ${b}.${duckIdent(f.name)}`).join(' AND ');
  const matches = (alias: string, extra = '') => `EXISTS (SELECT 1 FROM ${src} AS _s WHERE ${on('_s', alias)}${extra})`;
  const files = [...state.files.values()];
  const byAbsolute = new Map(files.map((f) => [resolveLogPath(core.dir, f.path), f]));
  const scanAll = await scanOfLogFiles(core.dir, schema, state.metadata.partitionColumns, files, { withFile: true });
  const { counts, sourceRows, numInsertedRows } = await withDuck(async (conn) => {
    const run = async (sql: string) => (await asInputError(() => conn.runAndReadAll(sql))).getRowObjectsJson();
    const dup = await run(
      `SELECT count(*) AS n FROM (SELECT ${keyFields.map((f) => duckIdent(f.name)).join(', ')} FROM ${src} AS _s GROUP BY ALL HAVING count(*) > 1)`,
    );
    if (Number(dup[0].n) > 0) throw new InvalidInputError('merge source has more than one row for a key');
    const n = await run(`SELECT count(*) AS n FROM ${src} AS _s`);
    const perFile =
      files.length === 0
        ? []
        : await run(
            `SELECT ${duckIdent(FILE_COLUMN)} AS f, count(*) AS n, ` +
              `count_if(${matches('t', ` AND _s.${act} = 'delete'`)}) AS d FROM ${scanAll} AS t WHERE ${matches('t')} GROUP BY 1`,
          );
    const inserted = await run(
      `SELECT count(*) AS n FROM ${src} AS _u WHERE _u.${act} = 'upsert'` +
        (files.length === 0 ? '' : ` AND NOT EXISTS (SELECT 1 FROM ${scanAll} AS t WHERE ${on('t', '_u')})`),
    );
    return { counts: perFile, sourceRows: Number(n[0].n), numInsertedRows: Number(inserted[0].n) };
  });
  if (sourceRows === 0) return { version: null, numInsertedRows: 0, numUpdatedRows: 0, numDeletedRows: 0 };
  const affected = counts
    .map((r) => ({ add: byAbsolute.get(String(r.f)), matched: Number(r.n), deleted: Number(r.d) }))
    .filter((a): a is { add: AddAction; matched: number; deleted: number } => a.add !== undefined);
  const removed = affected.map((a) => a.add);
  const numDeletedRows = sum(affected.map((a) => a.deleted));
  const numUpdatedRows = sum(affected.map((a) => a.matched)) - numDeletedRows;
  const now = Date.now();
  const spec = { schema, partitionColumns: state.metadata.partitionColumns, now };
  const scanRemoved =
    removed.length === 0 ? null : await scanOfLogFiles(core.dir, schema, state.metadata.partitionColumns, removed);
  const upserts = `SELECT ${columnList(schema, '_u')} FROM ${src} AS _u WHERE _u.${act} = 'upsert'`;
  const kept =
    scanRemoved === null
      ? null
      : `SELECT ${columnList(schema, 't')} FROM ${scanRemoved} AS t WHERE NOT ${matches('t')}`;
  const written = await writeDataFiles(core.dir, kept === null ? upserts : `${kept} UNION ALL ${upserts}`, spec);
  let cdc: Action[] = [];
  if (cdfEnabled(state.metadata)) {
    const existed =
      scanRemoved === null ? 'FALSE' : `EXISTS (SELECT 1 FROM ${scanRemoved} AS t WHERE ${on('t', '_u')})`;
    const parts = [
      `SELECT ${columnList(schema, '_u')}, CASE WHEN ${existed} THEN 'update_postimage' ELSE 'insert' END AS _change_type FROM ${src} AS _u WHERE _u.${act} = 'upsert'`,
    ];
    if (scanRemoved !== null) {
      parts.push(
        `SELECT ${columnList(schema, 't')}, CASE WHEN ${matches('t', ` AND _s.${act} = 'delete'`)} THEN 'delete' ELSE 'update_preimage' END AS _change_type ` +
          `FROM ${scanRemoved} AS t WHERE ${matches('t')}`,
      );
    }
    cdc = await writeChangeFiles(core.dir, parts.join(' UNION ALL '), spec);
  }
  const version = await commit(core.reader, {
    operation: 'MERGE',
    operationParameters: {
      predicate: JSON.stringify(keyFields.map((f) => `t.${f.name} = s.${f.name}`).join(' AND ')),
    },
    operationMetrics: {
      numTargetRowsInserted: numInsertedRows,
      numTargetRowsUpdated: numUpdatedRows,
      numTargetRowsDeleted: numDeletedRows,
      numSourceRows: sourceRows,
      numTargetFilesRemoved: removed.length,
      numTargetFilesAdded: written.length,
      numTargetChangeFilesAdded: cdc.length,
      numTargetBytesRemoved: sum(removed.map((f) => f.size)),
      numTargetBytesAdded: sum(written.map((f) => f.add.size)),
    },
    readVersion: state.version,
    actions: [...removed.map((f) => ({ remove: removeOf(f, now) })), ...written.map((f) => ({ add: f.add })), ...cdc],
    ctx,
  });
  return { version, numInsertedRows, numUpdatedRows, numDeletedRows };
}
