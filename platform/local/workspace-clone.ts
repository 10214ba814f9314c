import { InvalidInputError } from '../errors';
import type { CloneMetrics, CloneTableOptions, CopyMetrics, CopyTableOptions, TimeTravel } from '../types';
import { duckString } from './duck';
import type { TableEntry } from './metastore/types';
import { fqnOf, type LocalContext } from './workspace-context';
import { assertProperties, createTableAs, newTableEntry, prepareLocation } from './workspace-tables';
import { asInputError } from './workspace-write-sql';
import { countRows } from './workspace-stats';

/** CLONE (engine-level copy of the Delta log, DEEP or SHALLOW) and select-based copies (CTAS with a predicate). */
const ZERO: CloneMetrics = {
  sourceTableSize: 0,
  sourceNumOfFiles: 0,
  numRemovedFiles: 0,
  numCopiedFiles: 0,
  removedFilesSize: 0,
  copiedFilesSize: 0,
};

export function assertTimeTravel(t: TimeTravel): TimeTravel | undefined {
  const hasVersion = t.version !== undefined && t.version !== null;
  const hasTs = t.timestamp !== undefined && t.timestamp !== null;
  if (hasVersion && hasTs) throw new InvalidInputError('give either version or timestamp, not both');
  if (hasVersion && (!Number.isInteger(t.version) || t.version! < 0))
    throw new InvalidInputError(`version must be a non-negative integer, got ${t.version}`);
  if (hasTs && (typeof t.timestamp !== 'string' || Number.isNaN(Date.parse(t.timestamp)))) {
    throw new InvalidInputError(`timestamp must be an ISO 8601 date-time, got ${JSON.stringify(t.timestamp)}`);
  }
  if (hasVersion) return { version: t.version };
  if (hasTs) return { timestamp: t.timestamp };
  return undefined;
}

export async function cloneTable(ctx: LocalContext, opts: CloneTableOptions): Promise<CloneMetrics> {
  const source = ctx.ref(opts?.source, 'source table name');
  const target = ctx.ref(opts.target, 'target table name');
  if (opts.cloneType !== 'DEEP' && opts.cloneType !== 'SHALLOW')
    throw new InvalidInputError(`cloneType must be DEEP or SHALLOW, got ${opts.cloneType}`);
  const at = assertTimeTravel(opts);
  const properties = assertProperties(opts.properties);
  const replace = opts.replace ?? true;
  if (fqnOf(source) === fqnOf(target)) throw new InvalidInputError('source and target of a clone must differ');
  const src = await ctx.table(source);
  if (src.format !== 'DELTA')
    throw new InvalidInputError(
      `${fqnOf(source)} is ${src.format}; clone needs a Delta source (convertToDelta first, or copyTable)`,
    );
  await ctx.store.getSchema(target.catalog, target.schema);
  const existing = await ctx.store.findEntry('tables', target);
  if (existing && !replace) return ZERO;
  const { dir, external } =
    existing && !opts.location
      ? { dir: existing.location!, external: existing.tableType === 'EXTERNAL' }
      : await prepareLocation(ctx, target, opts.location);
  const entry: TableEntry = newTableEntry(ctx, target, 'DELTA', dir, external);
  entry.shallowCloneOf = opts.cloneType === 'SHALLOW' ? src.location : null;
  let metrics = ZERO;
  await ctx.store.create(ctx.store.entryFile('tables', target), `table ${fqnOf(target)}`, entry, {
    replace: true,
    materialise: async (prev) => {
      if (prev && (prev.kind !== 'TABLE' || prev.format !== 'DELTA'))
        throw new InvalidInputError(`${fqnOf(target)} exists and is not a Delta table; drop it first`);
      // A replaced clone keeps its governance: CREATE OR REPLACE keeps the table's identity.
      if (prev)
        Object.assign(entry, {
          owner: prev.owner,
          grants: prev.grants,
          tags: prev.tags,
          comment: prev.comment,
          columnTags: prev.columnTags,
          columnComments: prev.columnComments,
          rowFilter: prev.rowFilter,
          columnMasks: prev.columnMasks,
          createdAt: prev.createdAt,
        });
      try {
        metrics = await (
          await ctx.delta(src)
        ).cloneTo(dir, { mode: opts.cloneType, ...at, properties, replace: !!prev }, { userName: ctx.user });
      } catch (err) {
        throw asInputError(err, `clone of ${fqnOf(source)}`);
      }
    },
  });
  return metrics;
}

export async function copyTable(ctx: LocalContext, opts: CopyTableOptions): Promise<CopyMetrics> {
  const source = ctx.ref(opts?.source, 'source table name');
  const target = ctx.ref(opts.target, 'target table name');
  const at = assertTimeTravel(opts);
  await ctx.table(source);
  const travel =
    at?.version !== undefined
      ? ` VERSION AS OF ${at.version}`
      : at?.timestamp
        ? ` TIMESTAMP AS OF ${duckString(at.timestamp)}`
        : '';
  const where = opts.where && opts.where.trim() ? ` WHERE ${opts.where}` : '';
  const query = `SELECT * FROM \`${source.catalog}\`.\`${source.schema}\`.\`${source.name}\`${travel}${where}`;
  await createTableAs(ctx, { ref: target, query, properties: opts.properties, replace: true, location: opts.location });
  const entry = await ctx.table(target);
  const snap = await (await ctx.delta(entry)).snapshot();
  return { numOutputRows: await countRows(ctx, entry), numFiles: snap.numFiles, bytes: snap.sizeInBytes };
}
