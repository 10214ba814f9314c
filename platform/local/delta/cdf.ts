import { existsSync } from 'node:fs';
import { InvalidInputError, NotFoundError } from '../../errors';
import { duckIdent } from '../duck';
import type { Action } from './actions';
import { cdfEnabled, schemaOf, type Core } from './core';
import { readCommit } from './log';
import { resolveLogPath } from './paths';
import { scanExpression } from './scan';
import { scanOfLogFiles, type LogFile } from './scan-files';

function checkVersion(name: string, v: number): void {
  if (!Number.isInteger(v) || v < 0) throw new InvalidInputError(`${name}: ${v} is not a non-negative integer version`);
}

/**
 * table_changes(t, start, end) as a DuckDB table expression. A commit with `cdc` actions is read from its
 * change files only; otherwise its data-changing adds are inserts and removes are deletes (PROTOCOL.md
 * "Add CDC File"). Every version in the range must have delta.enableChangeDataFeed=true.
 */
export async function changesSql(core: Core, startVersion: number, endVersion?: number): Promise<string> {
  checkVersion('startVersion', startVersion);
  if (endVersion !== undefined) checkVersion('endVersion', endVersion);
  const latest = await core.reader.latestVersion();
  const end = endVersion ?? latest;
  if (startVersion > latest)
    throw new InvalidInputError(`startVersion: ${startVersion} is after the latest version ${latest}`);
  if (end > latest) throw new InvalidInputError(`endVersion: ${end} is after the latest version ${latest}`);
  if (end < startVersion) throw new InvalidInputError(`endVersion: ${end} is before startVersion ${startVersion}`);
  let metadata = (await core.reader.stateAt(startVersion)).metadata;
  const endState = await core.reader.stateAt(end);
  const schema = schemaOf(endState.metadata);
  const partitionColumns = endState.metadata.partitionColumns;
  const tail = `, _commit_version, _commit_timestamp`;
  const parts: string[] = [];
  for (let v = startVersion; v <= end; v++) {
    const actions: Action[] = await readCommit(core.dir, v);
    metadata = actions.find((a) => a.metaData)?.metaData ?? metadata;
    if (!cdfEnabled(metadata)) {
      throw new InvalidInputError(
        `change data feed is not enabled on ${core.dir} at version ${v} (set delta.enableChangeDataFeed=true)`,
      );
    }
    const ts = (await core.reader.commitMeta(v)).timestamp;
    const meta = `${v}::BIGINT AS _commit_version, to_timestamp(${ts} / 1000.0) AS _commit_timestamp`;
    const present = (f: LogFile): LogFile => {
      if (!existsSync(resolveLogPath(core.dir, f.path)))
        throw new NotFoundError(`change data of version ${v} is gone (file ${f.path} was vacuumed)`);
      return f;
    };
    const scan = (files: LogFile[], extraColumns: string) =>
      scanOfLogFiles(core.dir, schema, partitionColumns, files.map(present), { extraColumns });
    const cdc = actions.flatMap((a) => (a.cdc ? [a.cdc] : []));
    if (cdc.length > 0) {
      parts.push(await scan(cdc, `${duckIdent('_change_type')}, ${meta}`));
      continue;
    }
    const inserts = actions.flatMap((a) => (a.add?.dataChange ? [a.add] : []));
    const deletes = actions.flatMap((a) => (a.remove?.dataChange ? [a.remove] : []));
    if (inserts.length > 0) parts.push(await scan(inserts, `'insert' AS _change_type, ${meta}`));
    if (deletes.length > 0) parts.push(await scan(deletes, `'delete' AS _change_type, ${meta}`));
  }
  if (parts.length === 0) {
    const empty = `CAST(NULL AS VARCHAR) AS _change_type, CAST(NULL AS BIGINT) AS _commit_version, CAST(NULL AS TIMESTAMPTZ) AS _commit_timestamp`;
    return scanExpression(schema, partitionColumns, [], { extraColumns: empty });
  }
  const cols = schema.map((f) => duckIdent(f.name)).join(', ');
  return `(SELECT ${cols}, _change_type${tail} FROM (${parts.map((p) => `SELECT * FROM ${p}`).join(' UNION ALL BY NAME ')}))`;
}
