import { AlreadyExistsError, InvalidInputError, NotFoundError } from '../errors';
import { assertObjectName } from '../identifiers';
import type { CheckConstraint, TableRef } from '../types';
import { withDuck } from './duck';
import type { TableEntry } from './metastore/types';
import { fqnOf, type LocalContext } from './workspace-context';
import { rawScanSql } from './workspace-scan';
import { resolveForEngine } from './workspace-sql';

/**
 * CHECK constraints live where Databricks keeps them, as `delta.constraints.<name>` table properties (so a
 * deep clone carries them), and are enforced on every write. A NULL result counts as a violation, as in Delta.
 */
const PREFIX = 'delta.constraints.';

async function rawProperties(ctx: LocalContext, entry: TableEntry): Promise<Record<string, string>> {
  if (entry.format === 'DELTA') return (await (await ctx.delta(entry)).snapshot()).metadata.configuration;
  return entry.properties;
}

export async function listConstraintsOf(ctx: LocalContext, entry: TableEntry): Promise<CheckConstraint[]> {
  if (entry.kind !== 'TABLE') return [];
  return Object.entries(await rawProperties(ctx, entry))
    .filter(([k]) => k.startsWith(PREFIX))
    .map(([k, expression]) => ({ name: k.slice(PREFIX.length), expression }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

export const isConstraintProperty = (key: string) => key.startsWith(PREFIX);

/** Throws InvalidInputError naming the first constraint that rows of `selectSql` (DuckDB, table columns) break. */
export async function assertRowsSatisfy(
  ctx: LocalContext,
  entry: TableEntry,
  selectSql: string,
  only?: CheckConstraint[],
): Promise<void> {
  const constraints = only ?? (await listConstraintsOf(ctx, entry));
  for (const c of constraints) {
    const expr = await resolveForEngine(ctx, c.expression, 'expression');
    const bad = await withDuck(async (conn) => {
      const reader = await conn.runAndReadAll(
        `SELECT count(*) AS n FROM (${selectSql}) AS _rows WHERE NOT coalesce((${expr}), false)`,
      );
      return Number(reader.getRowObjectsJS()[0].n);
    });
    if (bad > 0) {
      throw new InvalidInputError(
        `CHECK constraint ${c.name} (${c.expression}) violated by ${bad} row(s) of ${fqnOf(entry)}`,
      );
    }
  }
}

export async function addCheckConstraint(ctx: LocalContext, ref: TableRef, c: CheckConstraint): Promise<void> {
  const r = ctx.ref(ref);
  const name = assertObjectName(c?.name, 'constraint name').toLowerCase();
  if (typeof c.expression !== 'string' || !c.expression.trim())
    throw new InvalidInputError('constraint expression is required');
  const entry = await ctx.table(r);
  if ((await listConstraintsOf(ctx, entry)).some((x) => x.name === name)) {
    throw new AlreadyExistsError(`constraint ${name} already exists on ${fqnOf(r)}`);
  }
  const constraint = { name, expression: c.expression };
  await assertRowsSatisfy(ctx, entry, `SELECT * FROM ${await rawScanSql(ctx, entry)}`, [constraint]);
  await setRawProperties(ctx, entry, { [PREFIX + name]: c.expression }, []);
}

export async function dropConstraint(ctx: LocalContext, ref: TableRef, name: string): Promise<void> {
  const r = ctx.ref(ref);
  const key = PREFIX + assertObjectName(name, 'constraint name').toLowerCase();
  const entry = await ctx.table(r);
  if (!(key in (await rawProperties(ctx, entry))))
    throw new NotFoundError(`constraint ${name} not found on ${fqnOf(r)}`);
  await setRawProperties(ctx, entry, {}, [key]);
}

/** Properties of a table: the Delta log configuration, or the metastore for other formats and views. */
export async function setRawProperties(
  ctx: LocalContext,
  entry: TableEntry,
  set: Record<string, string>,
  unset: string[],
): Promise<void> {
  if (entry.format === 'DELTA') {
    await (
      await ctx.delta(entry)
    ).updateMetadata({ setProperties: set, unsetProperties: unset }, { userName: ctx.user });
    return;
  }
  await ctx.store.update<TableEntry>(ctx.store.entryFile('tables', entry), fqnOf(entry), (cur) => {
    Object.assign(cur.properties, set);
    for (const k of unset) delete cur.properties[k];
  });
}

export { rawProperties };
