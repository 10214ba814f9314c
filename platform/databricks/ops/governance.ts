import { InvalidInputError } from '../../errors';
import type { CheckConstraint, ColumnMask, Grant, RowFilter, Securable, TableRef } from '../../types';
import { showTblPropertiesSql } from '../sql/discovery';
import * as g from '../sql/governance';
import { checkRef, checkSecurable, columnName, fullName } from '../sql/names';
import { rows, run, type OpsContext } from './context';

/** Ownership and grants are read over REST (typed, includes views); every write is SQL. */
export async function getOwner(ctx: OpsContext, s: Securable): Promise<string | null> {
  checkSecurable(s);
  return (await ctx.uc.getSecurable(s.type, fullName(s))).owner ?? null;
}

export async function setOwner(ctx: OpsContext, s: Securable, principal: string): Promise<void> {
  await run(ctx, g.setOwnerSql(checkSecurable(s), principalName(principal)));
}

export async function getGrants(ctx: OpsContext, s: Securable): Promise<Grant[]> {
  checkSecurable(s);
  const list = await ctx.uc.getGrants(s.type, fullName(s));
  return list
    .map((a) => ({ principal: a.principal, privileges: [...a.privileges].sort() }))
    .sort((a, b) => a.principal.localeCompare(b.principal));
}

export async function grant(ctx: OpsContext, s: Securable, principal: string, privileges: string[]): Promise<void> {
  await run(ctx, g.grantSql(checkSecurable(s), principalName(principal), privileges));
}

export async function revoke(ctx: OpsContext, s: Securable, principal: string, privileges: string[]): Promise<void> {
  await run(ctx, g.revokeSql(checkSecurable(s), principalName(principal), privileges));
}

export async function getTags(ctx: OpsContext, s: Securable): Promise<Record<string, string>> {
  const list = await rows(ctx, g.tagsQuerySql(checkSecurable(s)));
  return Object.fromEntries(list.map((r) => [String(r.tag_name), String(r.tag_value ?? '')]));
}

export async function setTags(ctx: OpsContext, s: Securable, tags: Record<string, string>): Promise<void> {
  if (Object.keys(tags).length > 0) await run(ctx, g.setTagsSql(checkSecurable(s), tags));
}

export async function unsetTags(ctx: OpsContext, s: Securable, keys: string[]): Promise<void> {
  if (keys.length > 0) await run(ctx, g.unsetTagsSql(checkSecurable(s), keys));
}

export async function getColumnTags(ctx: OpsContext, ref: TableRef): Promise<Record<string, Record<string, string>>> {
  const out: Record<string, Record<string, string>> = {};
  for (const r of await rows(ctx, g.columnTagsQuerySql(checkRef(ref)))) {
    (out[String(r.column_name)] ??= {})[String(r.tag_name)] = String(r.tag_value ?? '');
  }
  return out;
}

export async function setColumnTags(ctx: OpsContext, ref: TableRef, column: string, tags: Record<string, string>) {
  if (Object.keys(tags).length > 0) await run(ctx, g.setColumnTagsSql(checkRef(ref), columnName(column), tags));
}

export async function getComment(ctx: OpsContext, s: Securable): Promise<string | null> {
  checkSecurable(s);
  return (await ctx.uc.getSecurable(s.type, fullName(s))).comment ?? null;
}

export async function setComment(ctx: OpsContext, s: Securable, comment: string | null): Promise<void> {
  await run(ctx, g.commentOnSql(checkSecurable(s), comment));
}

export async function getColumnComments(ctx: OpsContext, ref: TableRef): Promise<Record<string, string>> {
  const table = await ctx.uc.getTable(fullName({ type: 'TABLE', ...checkRef(ref) }));
  return Object.fromEntries((table.columns ?? []).filter((c) => c.comment).map((c) => [c.name, c.comment as string]));
}

export async function setColumnComment(ctx: OpsContext, ref: TableRef, column: string, comment: string | null) {
  await run(ctx, g.columnCommentSql(checkRef(ref), columnName(column), comment));
}

export async function getProperties(ctx: OpsContext, ref: TableRef): Promise<Record<string, string>> {
  const list = await rows(ctx, showTblPropertiesSql(checkRef(ref)));
  return Object.fromEntries(list.map((r) => [String(r.key), String(r.value ?? '')]));
}

export async function setProperties(ctx: OpsContext, ref: TableRef, props: Record<string, string>): Promise<void> {
  if (Object.keys(props).length > 0) await run(ctx, g.setTblPropertiesSql(checkRef(ref), props));
}

export async function unsetProperties(ctx: OpsContext, ref: TableRef, keys: string[]): Promise<void> {
  if (keys.length > 0) await run(ctx, g.unsetTblPropertiesSql(checkRef(ref), keys));
}

/** Delta keeps CHECK constraints as table properties `delta.constraints.<name>` = expression. */
export async function listConstraints(ctx: OpsContext, ref: TableRef): Promise<CheckConstraint[]> {
  const props = await getProperties(ctx, ref);
  return Object.entries(props)
    .filter(([k]) => k.startsWith('delta.constraints.'))
    .map(([k, v]) => ({ name: k.slice('delta.constraints.'.length), expression: v }));
}

export async function addCheckConstraint(ctx: OpsContext, ref: TableRef, c: CheckConstraint): Promise<void> {
  await run(ctx, g.addCheckConstraintSql(checkRef(ref), { name: constraintName(c.name), expression: c.expression }));
}

export async function dropConstraint(ctx: OpsContext, ref: TableRef, name: string): Promise<void> {
  await run(ctx, g.dropConstraintSql(checkRef(ref), constraintName(name)));
}

export async function getRowFilter(ctx: OpsContext, ref: TableRef): Promise<RowFilter | null> {
  const t = await ctx.uc.getTable(fullName({ type: 'TABLE', ...checkRef(ref) }));
  return t.row_filter
    ? { functionName: t.row_filter.function_name, columns: t.row_filter.input_column_names ?? [] }
    : null;
}

export async function setRowFilter(ctx: OpsContext, ref: TableRef, f: RowFilter): Promise<void> {
  f.columns.forEach(columnName);
  await run(ctx, g.setRowFilterSql(checkRef(ref), f));
}

export async function dropRowFilter(ctx: OpsContext, ref: TableRef): Promise<void> {
  await run(ctx, g.dropRowFilterSql(checkRef(ref)));
}

export async function getColumnMasks(ctx: OpsContext, ref: TableRef): Promise<ColumnMask[]> {
  const t = await ctx.uc.getTable(fullName({ type: 'TABLE', ...checkRef(ref) }));
  return (t.columns ?? [])
    .filter((c) => c.mask)
    .map((c) => ({
      column: c.name,
      functionName: c.mask!.function_name,
      usingColumns: c.mask!.using_column_names ?? [],
    }));
}

export async function setColumnMask(ctx: OpsContext, ref: TableRef, m: ColumnMask): Promise<void> {
  [m.column, ...m.usingColumns].forEach(columnName);
  await run(ctx, g.setColumnMaskSql(checkRef(ref), m));
}

export async function dropColumnMask(ctx: OpsContext, ref: TableRef, column: string): Promise<void> {
  await run(ctx, g.dropColumnMaskSql(checkRef(ref), columnName(column)));
}

function principalName(p: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what this refuses or escapes
  if (typeof p !== 'string' || p.trim() === '' || /[\x00-\x1f]/.test(p)) {
    throw new InvalidInputError(`invalid principal ${JSON.stringify(p)}`);
  }
  return p;
}

function constraintName(n: string): string {
  if (typeof n !== 'string' || !/^[A-Za-z0-9_]{1,255}$/.test(n)) {
    throw new InvalidInputError(`invalid constraint name ${JSON.stringify(n)}: letters, digits and '_' only`);
  }
  return n;
}
