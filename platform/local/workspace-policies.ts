import { InvalidInputError, NotFoundError } from '../errors';
import type { ColumnMask, RowFilter, TableRef } from '../types';
import type { TableEntry } from './metastore/types';
import { isConstraintProperty, setRawProperties } from './workspace-constraints';
import { fqnOf, type LocalContext } from './workspace-context';
import { describeTable, visibleProperties } from './workspace-discovery';
import { checkTags } from './workspace-governance';

/** Column tags and comments, table properties, row filters and column masks of tables (and views where UC allows). */

async function entryOf(ctx: LocalContext, ref: TableRef): Promise<TableEntry> {
  return ctx.store.getEntry('tables', ctx.ref(ref));
}
async function change(ctx: LocalContext, entry: TableEntry, fn: (e: TableEntry) => void): Promise<void> {
  await ctx.store.update<TableEntry>(ctx.store.entryFile('tables', entry), fqnOf(entry), fn);
}
async function assertColumn(ctx: LocalContext, entry: TableEntry, column: string): Promise<string> {
  const cols = (await describeTable(ctx, entry)).columns.map((c) => c.name);
  const match = cols.find((c) => c.toLowerCase() === String(column).toLowerCase());
  if (!match) throw new NotFoundError(`column ${column} not found in ${fqnOf(entry)}`);
  return match;
}
async function assertFunction(ctx: LocalContext, name: string): Promise<string> {
  const parts = typeof name === 'string' ? name.split('.').map((p) => p.replace(/`/g, '')) : [];
  if (parts.length !== 3)
    throw new InvalidInputError(`functionName must be catalog.schema.function, got ${JSON.stringify(name)}`);
  const ref = ctx.ref({ catalog: parts[0], schema: parts[1], name: parts[2] }, 'function name');
  await ctx.store.getEntry('functions', ref);
  return fqnOf(ref);
}

export async function getColumnTags(ctx: LocalContext, ref: TableRef) {
  return structuredClone((await entryOf(ctx, ref)).columnTags);
}
export async function setColumnTags(
  ctx: LocalContext,
  ref: TableRef,
  column: string,
  tags: Record<string, string>,
): Promise<void> {
  const t = checkTags(tags);
  const entry = await entryOf(ctx, ref);
  const col = await assertColumn(ctx, entry, column);
  await change(ctx, entry, (e) => void (e.columnTags[col] = { ...(e.columnTags[col] ?? {}), ...t }));
}

export async function getColumnComments(ctx: LocalContext, ref: TableRef): Promise<Record<string, string>> {
  return { ...(await entryOf(ctx, ref)).columnComments };
}
export async function setColumnComment(
  ctx: LocalContext,
  ref: TableRef,
  column: string,
  comment: string | null,
): Promise<void> {
  if (comment !== null && typeof comment !== 'string') throw new InvalidInputError('comment must be a string or null');
  const entry = await entryOf(ctx, ref);
  const col = await assertColumn(ctx, entry, column);
  await change(ctx, entry, (e) => {
    if (comment) e.columnComments[col] = comment;
    else delete e.columnComments[col];
  });
}

export async function getProperties(ctx: LocalContext, ref: TableRef): Promise<Record<string, string>> {
  return visibleProperties(ctx, await entryOf(ctx, ref));
}
export async function setProperties(ctx: LocalContext, ref: TableRef, props: Record<string, string>): Promise<void> {
  if (!props || typeof props !== 'object') throw new InvalidInputError('properties must be an object of strings');
  for (const [k, v] of Object.entries(props)) {
    if (!k || typeof v !== 'string')
      throw new InvalidInputError(`property ${JSON.stringify(k)} must have a string value`);
    if (isConstraintProperty(k)) throw new InvalidInputError(`${k}: use addCheckConstraint for CHECK constraints`);
  }
  const entry = await entryOf(ctx, ref);
  if (entry.kind === 'VIEW') return change(ctx, entry, (e) => void Object.assign(e.properties, props));
  await setRawProperties(ctx, entry, props, []);
}
export async function unsetProperties(ctx: LocalContext, ref: TableRef, keys: string[]): Promise<void> {
  if (!Array.isArray(keys)) throw new InvalidInputError('keys must be an array of property names');
  const entry = await entryOf(ctx, ref);
  const drop = keys.filter((k) => !isConstraintProperty(k));
  if (entry.kind === 'VIEW') return change(ctx, entry, (e) => drop.forEach((k) => delete e.properties[k]));
  await setRawProperties(ctx, entry, {}, drop);
}

export async function getRowFilter(ctx: LocalContext, ref: TableRef): Promise<RowFilter | null> {
  return (await ctx.table(ctx.ref(ref))).rowFilter;
}
export async function setRowFilter(ctx: LocalContext, ref: TableRef, filter: RowFilter): Promise<void> {
  const entry = await ctx.table(ctx.ref(ref));
  const functionName = await assertFunction(ctx, filter?.functionName);
  if (!Array.isArray(filter.columns)) throw new InvalidInputError('row filter columns must be an array');
  const columns: string[] = [];
  for (const c of filter.columns) columns.push(await assertColumn(ctx, entry, c));
  await change(ctx, entry, (e) => void (e.rowFilter = { functionName, columns }));
}
export async function dropRowFilter(ctx: LocalContext, ref: TableRef): Promise<void> {
  await change(ctx, await ctx.table(ctx.ref(ref)), (e) => void (e.rowFilter = null));
}

export async function getColumnMasks(ctx: LocalContext, ref: TableRef): Promise<ColumnMask[]> {
  return structuredClone((await ctx.table(ctx.ref(ref))).columnMasks);
}
export async function setColumnMask(ctx: LocalContext, ref: TableRef, mask: ColumnMask): Promise<void> {
  const entry = await ctx.table(ctx.ref(ref));
  const column = await assertColumn(ctx, entry, mask?.column);
  const functionName = await assertFunction(ctx, mask.functionName);
  const usingColumns = mask.usingColumns ?? [];
  if (!Array.isArray(usingColumns)) throw new InvalidInputError('usingColumns must be an array');
  const resolvedUsing: string[] = [];
  for (const c of usingColumns) resolvedUsing.push(/^['"\d-]/.test(c) ? c : await assertColumn(ctx, entry, c));
  await change(ctx, entry, (e) => {
    e.columnMasks = [
      ...e.columnMasks.filter((m) => m.column !== column),
      { column, functionName, usingColumns: resolvedUsing },
    ];
  });
}
export async function dropColumnMask(ctx: LocalContext, ref: TableRef, column: string): Promise<void> {
  const entry = await ctx.table(ctx.ref(ref));
  const col = await assertColumn(ctx, entry, column);
  await change(ctx, entry, (e) => void (e.columnMasks = e.columnMasks.filter((m) => m.column !== col)));
}
