import { InvalidInputError } from '../../errors';
import { duckIdent, withDuck } from '../duck';
import type { Action } from './actions';
import { commit } from './commit';
import type { CommitContext, DeltaField } from './contract';
import { protocolFor, sameProtocol, schemaOf, type Core } from './core';
import { scanOfLogFiles } from './scan-files';
import { toSchemaString, validateSchema } from './schema';
import { parseTypeText, typeText } from './type-text';

export interface MetadataChange {
  setProperties?: Record<string, string>;
  unsetProperties?: string[];
  description?: string | null;
  schema?: DeltaField[];
}

/**
 * Allowed schema changes: column metadata (comments) and nullability, and new nullable columns at the end
 * (ADD COLUMNS; older files simply lack them and read as NULL). Renames, drops, reordering and type
 * changes would need column mapping, which this engine does not implement.
 */
function checkSchemaChange(current: DeltaField[], next: DeltaField[]): void {
  if (next.length < current.length) throw new InvalidInputError('schema: dropping columns is not supported');
  current.forEach((c, i) => {
    const f = next[i];
    if (f.name !== c.name || typeText(parseTypeText(f.type)) !== c.type) {
      throw new InvalidInputError(
        `schema: column ${i + 1} must stay '${c.name}' ${c.type} (got '${f.name}' ${f.type})`,
      );
    }
  });
  for (const added of next.slice(current.length)) {
    if (!added.nullable) throw new InvalidInputError(`schema: added column '${added.name}' must be nullable`);
  }
}

/** Metadata-only commit: SET/UNSET TBLPROPERTIES, COMMENT, column comments / NOT NULL. */
export async function updateMetadata(
  core: Core,
  change: MetadataChange,
  ctx?: CommitContext,
): Promise<{ version: number }> {
  const state = await core.reader.stateAt();
  const current = schemaOf(state.metadata);
  for (const [k, v] of Object.entries(change.setProperties ?? {})) {
    if (!k || typeof v !== 'string') throw new InvalidInputError(`setProperties: value of '${k}' must be a string`);
  }
  const schema = change.schema ?? current;
  if (change.schema) {
    validateSchema(change.schema, state.metadata.partitionColumns);
    checkSchemaChange(current, change.schema);
    await assertNoNulls(core, state, current, change.schema);
  }
  const configuration = { ...state.metadata.configuration, ...(change.setProperties ?? {}) };
  for (const key of change.unsetProperties ?? []) delete configuration[key];
  const metadata = {
    ...state.metadata,
    configuration,
    schemaString: toSchemaString(schema),
    ...(change.description !== undefined ? { description: change.description } : {}),
  };
  const protocol = protocolFor(schema, configuration, state.protocol);
  const actions: Action[] = [{ metaData: metadata }];
  if (!sameProtocol(protocol, state.protocol)) actions.unshift({ protocol });
  const added = change.schema && change.schema.length > current.length;
  const operation = added
    ? 'ADD COLUMNS'
    : change.schema
      ? 'CHANGE COLUMN'
      : change.unsetProperties?.length && !change.setProperties
        ? 'UNSET TBLPROPERTIES'
        : 'SET TBLPROPERTIES';
  const operationParameters: Record<string, unknown> = change.unsetProperties?.length
    ? { properties: JSON.stringify(change.unsetProperties), ifExists: 'true' }
    : {
        properties: JSON.stringify({
          ...(change.setProperties ?? {}),
          ...(change.description !== undefined ? { comment: change.description } : {}),
        }),
      };
  const version = await commit(core.reader, {
    operation,
    operationParameters,
    readVersion: state.version,
    actions,
    ctx,
  });
  return { version };
}

async function assertNoNulls(
  core: Core,
  state: Awaited<ReturnType<Core['reader']['stateAt']>>,
  current: DeltaField[],
  next: DeltaField[],
): Promise<void> {
  const tightened = next.filter((f, i) => i < current.length && !f.nullable && current[i].nullable);
  if (tightened.length === 0 || state.files.size === 0) return;
  const scan = await scanOfLogFiles(core.dir, current, state.metadata.partitionColumns, [...state.files.values()]);
  const counts = tightened
    .map((f) => `count(*) FILTER (WHERE ${duckIdent(f.name)} IS NULL) AS ${duckIdent(f.name)}`)
    .join(', ');
  const row = await withDuck(
    async (conn) => (await conn.runAndReadAll(`SELECT ${counts} FROM ${scan} AS t`)).getRowObjectsJson()[0],
  );
  for (const f of tightened) {
    if (Number(row[f.name]) > 0)
      throw new InvalidInputError(`schema: column '${f.name}' cannot be NOT NULL, it holds ${row[f.name]} NULL values`);
  }
}
