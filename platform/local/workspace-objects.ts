import { InvalidInputError } from '../errors';
import type { TableRef } from '../types';
import { baseEntry, type FunctionEntry, type TableEntry, type VolumeEntry } from './metastore/types';
import { removeDir } from './metastore/files';
import { Resolver } from './sql/resolve';
import { databricksToDuck } from './sql/types';
import { fqnOf, type LocalContext } from './workspace-context';
import { LocalResolverHost } from './workspace-sql';
import path from 'node:path';
import { promises as fs } from 'node:fs';

/** Views, SQL functions and volumes: metadata-only objects (volumes also own a folder of files). */
function requireText(value: unknown, what: string): string {
  if (typeof value !== 'string' || !value.trim()) throw new InvalidInputError(`${what} is required`);
  return value.trim();
}

export async function createView(
  ctx: LocalContext,
  opts: { ref: TableRef; definition: string; comment?: string | null; replace?: boolean },
): Promise<void> {
  const ref = ctx.ref(opts?.ref, 'view name');
  const definition = requireText(opts.definition, 'view definition').replace(/;\s*$/, '');
  await ctx.store.getSchema(ref.catalog, ref.schema);
  // Resolving now reports bad SQL and unknown tables at creation, as Databricks does.
  await new Resolver(new LocalResolverHost(ctx)).resolveQuery(definition);
  const entry: TableEntry = {
    ...baseEntry(ref.name, ctx.user, opts.comment ?? null),
    catalog: ref.catalog,
    schema: ref.schema,
    kind: 'VIEW',
    tableType: 'VIEW',
    format: null,
    location: null,
    definition,
    columnComments: {},
    columnTags: {},
    rowFilter: null,
    columnMasks: [],
  };
  await ctx.store.create(ctx.store.entryFile('tables', ref), `view ${fqnOf(ref)}`, entry, {
    replace: opts.replace,
    materialise: async (prev) => {
      if (prev && prev.kind !== 'VIEW')
        throw new InvalidInputError(`${fqnOf(ref)} is a table; cannot replace it with a view`);
      if (prev)
        Object.assign(entry, { owner: prev.owner, grants: prev.grants, tags: prev.tags, createdAt: prev.createdAt });
    },
  });
}

export async function dropView(ctx: LocalContext, ref: TableRef, opts: { ifExists?: boolean } = {}): Promise<void> {
  const r = ctx.ref(ref, 'view name');
  await ctx.store.mutate<TableEntry>(ctx.store.entryFile('tables', r), async (cur) => {
    if (!cur) {
      if (opts.ifExists) return null;
      await ctx.store.getEntry('tables', r);
    }
    if (cur && cur.kind !== 'VIEW') throw new InvalidInputError(`${fqnOf(r)} is a table, not a view (use dropTable)`);
    return null;
  });
}

export async function createFunction(
  ctx: LocalContext,
  opts: {
    ref: TableRef;
    parameters: string;
    returnType: string;
    body: string;
    comment?: string | null;
    replace?: boolean;
  },
): Promise<void> {
  const ref = ctx.ref(opts?.ref, 'function name');
  const parameters = typeof opts.parameters === 'string' ? opts.parameters.trim() : '';
  const returnType = requireText(opts.returnType, 'function returnType');
  databricksToDuck(returnType);
  const body = requireText(opts.body, 'function body');
  await ctx.store.getSchema(ref.catalog, ref.schema);
  await new Resolver(new LocalResolverHost(ctx)).resolveExpression(body);
  const entry: FunctionEntry = {
    ...baseEntry(ref.name, ctx.user, opts.comment ?? null),
    catalog: ref.catalog,
    schema: ref.schema,
    parameters,
    returnType,
    body,
  };
  await ctx.store.create(ctx.store.entryFile('functions', ref), `function ${fqnOf(ref)}`, entry, {
    replace: opts.replace,
  });
}

export async function dropFunction(ctx: LocalContext, ref: TableRef, opts: { ifExists?: boolean } = {}): Promise<void> {
  const r = ctx.ref(ref, 'function name');
  await ctx.store.mutate<FunctionEntry>(ctx.store.entryFile('functions', r), async (cur) => {
    if (!cur && !opts.ifExists) await ctx.store.getEntry('functions', r);
    return null;
  });
}

export async function createVolume(
  ctx: LocalContext,
  opts: {
    ref: TableRef;
    volumeType?: 'MANAGED' | 'EXTERNAL';
    storageLocation?: string;
    comment?: string | null;
    ifNotExists?: boolean;
  },
): Promise<void> {
  const ref = ctx.ref(opts?.ref, 'volume name');
  const volumeType = opts.volumeType ?? (opts.storageLocation ? 'EXTERNAL' : 'MANAGED');
  if (volumeType !== 'MANAGED' && volumeType !== 'EXTERNAL')
    throw new InvalidInputError(`volumeType must be MANAGED or EXTERNAL, got ${volumeType}`);
  if (volumeType === 'EXTERNAL' && !(opts.storageLocation && path.isAbsolute(opts.storageLocation))) {
    throw new InvalidInputError('an EXTERNAL volume needs an absolute storageLocation');
  }
  await ctx.store.getSchema(ref.catalog, ref.schema);
  const storageLocation =
    volumeType === 'MANAGED' ? await ctx.store.managedVolumeDir(ref) : path.resolve(opts.storageLocation!);
  const entry: VolumeEntry = {
    ...baseEntry(ref.name, ctx.user, opts.comment ?? null),
    catalog: ref.catalog,
    schema: ref.schema,
    volumeType,
    storageLocation,
  };
  await ctx.store.create(ctx.store.entryFile('volumes', ref), `volume ${fqnOf(ref)}`, entry, {
    ifNotExists: opts.ifNotExists,
    materialise: async () => {
      await fs.mkdir(storageLocation, { recursive: true });
    },
  });
}

export async function dropVolume(ctx: LocalContext, ref: TableRef, opts: { ifExists?: boolean } = {}): Promise<void> {
  const r = ctx.ref(ref, 'volume name');
  let dropped: VolumeEntry | null = null;
  await ctx.store.mutate<VolumeEntry>(ctx.store.entryFile('volumes', r), async (cur) => {
    if (!cur && !opts.ifExists) await ctx.store.getEntry('volumes', r);
    dropped = cur;
    return null;
  });
  const gone = dropped as VolumeEntry | null;
  if (gone?.volumeType === 'MANAGED' && gone.storageLocation) await removeDir(gone.storageLocation);
}
