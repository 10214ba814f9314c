import { randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { AlreadyExistsError, InvalidInputError } from '../../errors';
import { removeOf, type Action, type MetaDataAction } from './actions';
import { commit } from './commit';
import type { CommitContext, CreateDeltaOptions, DeltaField } from './contract';
import { assertNotAppendOnly, protocolFor, schemaOf, sum, type Core } from './core';
import { listLog } from './log';
import { toSchemaString, validateSchema } from './schema';
import { shapeSelect } from './shape';
import { writeDataFiles, type WrittenFile } from './write-files';

function checkConfiguration(configuration: Record<string, string>): void {
  for (const [k, v] of Object.entries(configuration)) {
    if (typeof v !== 'string') throw new InvalidInputError(`configuration: value of '${k}' must be a string`);
  }
}

export function newMetadata(
  schema: DeltaField[],
  opts: Omit<CreateDeltaOptions, 'schema'>,
  now: number,
): MetaDataAction {
  const partitionColumns = opts.partitionColumns ?? [];
  validateSchema(schema, partitionColumns);
  checkConfiguration(opts.configuration ?? {});
  return {
    id: randomUUID(),
    ...(opts.name ? { name: opts.name } : {}),
    ...(opts.description ? { description: opts.description } : {}),
    format: { provider: 'parquet', options: {} },
    schemaString: toSchemaString(schema),
    partitionColumns,
    configuration: { ...(opts.configuration ?? {}) },
    createdTime: now,
  };
}

async function assertNoTable(dir: string): Promise<void> {
  if ((await listLog(dir)).commits.length > 0) throw new AlreadyExistsError(`a Delta table already exists at ${dir}`);
}

export function writeMetrics(files: WrittenFile[]): Record<string, number> {
  return {
    numFiles: files.length,
    numOutputRows: sum(files.map((f) => f.numRecords)),
    numOutputBytes: sum(files.map((f) => f.add.size)),
  };
}

/** CREATE TABLE (empty) or CTAS: version 0 with protocol, metaData and the query's files. */
export async function createTable(
  core: Core,
  schema: DeltaField[],
  opts: Omit<CreateDeltaOptions, 'schema'>,
  selectSql: string | null,
  ctx?: CommitContext,
): Promise<void> {
  const now = Date.now();
  const metadata = newMetadata(schema, opts, now);
  await assertNoTable(core.dir);
  // mkdir returns the first folder it created: that is what to take away again if the CTAS query fails.
  const created = await fs.mkdir(core.dir, { recursive: true });
  let files: WrittenFile[];
  try {
    files =
      selectSql === null
        ? []
        : await writeDataFiles(core.dir, await shapeSelect(selectSql, schema), {
            schema,
            partitionColumns: metadata.partitionColumns,
            now,
          });
  } catch (err) {
    if (created) await fs.rm(created, { recursive: true, force: true });
    throw err;
  }
  const actions: Action[] = [
    { protocol: protocolFor(schema, metadata.configuration) },
    { metaData: metadata },
    ...files.map((f) => ({ add: f.add })),
  ];
  await commit(core.reader, {
    operation: selectSql === null ? 'CREATE TABLE' : 'CREATE TABLE AS SELECT',
    operationParameters: {
      isManaged: 'false',
      ...(opts.description ? { description: opts.description } : {}),
      partitionBy: JSON.stringify(metadata.partitionColumns),
      properties: JSON.stringify(metadata.configuration),
    },
    operationMetrics: selectSql === null ? {} : writeMetrics(files),
    readVersion: -1,
    actions,
    ctx,
  });
}

/** INSERT INTO (append) or INSERT OVERWRITE (replace every live file). */
export async function writeRows(
  core: Core,
  selectSql: string,
  mode: 'Append' | 'Overwrite',
  ctx?: CommitContext,
): Promise<{ version: number; numOutputRows: number }> {
  const state = await core.reader.stateAt();
  if (mode === 'Overwrite') assertNotAppendOnly(state, 'INSERT OVERWRITE');
  const schema = schemaOf(state.metadata);
  const shaped = await shapeSelect(selectSql, schema);
  const now = Date.now();
  const files = await writeDataFiles(core.dir, shaped, {
    schema,
    partitionColumns: state.metadata.partitionColumns,
    now,
  });
  const removes = mode === 'Overwrite' ? [...state.files.values()].map((f) => ({ remove: removeOf(f, now) })) : [];
  const metrics = writeMetrics(files);
  const version = await commit(core.reader, {
    operation: 'WRITE',
    operationParameters: { mode, partitionBy: JSON.stringify(state.metadata.partitionColumns) },
    operationMetrics: mode === 'Overwrite' ? { ...metrics, numRemovedFiles: removes.length } : metrics,
    readVersion: state.version,
    isBlindAppend: mode === 'Append',
    actions: [...removes, ...files.map((f) => ({ add: f.add }))],
    ctx,
  });
  return { version, numOutputRows: metrics.numOutputRows };
}
