import { createHash } from 'node:crypto';
import type { DuckDBConnection } from '@duckdb/node-api';
import { InvalidInputError } from '../errors';
import type { QueryResult, TableRef, TimeTravel } from '../types';
import { duckIdent, instanceOf, withDuck } from './duck';
import { ensureHelperMacros } from './sql/dialect';
import { Resolver, type ResolverHost } from './sql/resolve';
import { databricksToDuck, splitTopLevel } from './sql/types';
import { toQueryResult } from './sql/result';
import { fqnOf, type LocalContext } from './workspace-context';
import { informationSchemaSql } from './workspace-information';
import { changesSqlOf } from './workspace-changes';
import { rawScanSql } from './workspace-scan';

/** Answers the SQL resolver's lookups from one local workspace and applies row filters and column masks. */
export class LocalResolverHost implements ResolverHost {
  constructor(private readonly ctx: LocalContext) {}
  get user() {
    return this.ctx.user;
  }
  get groups() {
    return this.ctx.groups;
  }
  async catalogExists(name: string): Promise<boolean> {
    return (await this.ctx.store.findCatalog(name)) !== null;
  }

  async relationSql(ref: TableRef, at: TimeTravel | undefined, r: Resolver): Promise<string | null> {
    const entry = await this.ctx.store.findEntry('tables', ref);
    if (!entry) return null;
    if (entry.kind === 'VIEW') {
      if (at) throw new InvalidInputError(`time travel is not supported on view ${fqnOf(ref)}`);
      return `(${await r.child().resolveQuery(entry.definition ?? '')})`;
    }
    const raw = await rawScanSql(this.ctx, entry, at);
    if (!entry.rowFilter && entry.columnMasks.length === 0) return raw;
    const columns = (await this.ctx.columns(entry, at)).map((c) => c.name);
    const arg = (c: string) => (columns.includes(c) ? duckIdent(c) : c);
    const projection: string[] = [];
    for (const c of columns) {
      const mask = entry.columnMasks.find((m) => m.column === c);
      if (!mask) projection.push(duckIdent(c));
      else {
        const macro = await this.macroFor(mask.functionName, r);
        projection.push(`${duckIdent(macro)}(${[c, ...mask.usingColumns].map(arg).join(', ')}) AS ${duckIdent(c)}`);
      }
    }
    let where = '';
    if (entry.rowFilter) {
      const macro = await this.macroFor(entry.rowFilter.functionName, r);
      where = ` WHERE ${duckIdent(macro)}(${entry.rowFilter.columns.map(arg).join(', ')})`;
    }
    return `(SELECT ${projection.join(', ')} FROM ${raw} AS _lw_governed${where})`;
  }

  private async macroFor(threePart: string, r: Resolver): Promise<string> {
    const parts = threePart.split('.').map((p) => p.replace(/`/g, '').toLowerCase());
    const macro =
      parts.length === 3 ? await this.functionMacro({ catalog: parts[0], schema: parts[1], name: parts[2] }, r) : null;
    if (!macro) throw new InvalidInputError(`function ${threePart} used by a row filter or column mask not found`);
    return macro;
  }

  async functionMacro(ref: TableRef, r: Resolver): Promise<string | null> {
    const fn = await this.ctx.store.findEntry('functions', ref);
    if (!fn) return null;
    const params = splitTopLevel(fn.parameters).map((p) => duckIdent(p.trim().split(/\s+/)[0].replace(/`/g, '')));
    const body = await r.child().resolveExpression(fn.body);
    const definition = `(${params.join(', ')}) AS CAST((${body}) AS ${databricksToDuck(fn.returnType)})`;
    // Content-addressed: a macro, once defined, never changes, so concurrent queries never redefine it.
    const name = `${this.ctx.functionMacroName(ref)}__${createHash('sha1').update(definition).digest('hex').slice(0, 12)}`;
    r.addMacro(name, `CREATE OR REPLACE MACRO ${duckIdent(name)}${definition}`);
    return name;
  }

  informationSchemaSql(catalog: string | null, view: string): Promise<string> {
    return informationSchemaSql(this.ctx, catalog, view);
  }

  async changesSql(ref: TableRef, start: number, end: number | undefined): Promise<string> {
    return changesSqlOf(this.ctx, ref, start, end);
  }
}

/** Macros defined so far, per DuckDB instance (the shared one, or a warehouse cluster's). */
const definedPerInstance = new WeakMap<object, Set<string>>();
let macroQueue: Promise<void> = Promise.resolve();

/**
 * Defines the macros a resolved statement needs on the shared instance (visible to every connection).
 * DuckDB rejects concurrent catalog writes to one name, so definitions are queued one at a time per process.
 */
export function defineMacros(conn: DuckDBConnection, resolver: Resolver): Promise<void> {
  const key = instanceOf(conn);
  let definedMacros = definedPerInstance.get(key);
  if (!definedMacros) definedPerInstance.set(key, (definedMacros = new Set<string>()));
  const pending = [...resolver.macros].filter(([name]) => !definedMacros.has(name));
  const run = macroQueue.then(async () => {
    await ensureHelperMacros(conn);
    for (const [name, sql] of pending) {
      if (definedMacros.has(name)) continue;
      await conn.run(sql);
      definedMacros.add(name);
    }
  });
  macroQueue = run.catch(() => undefined);
  return run;
}

/** Resolves Databricks SQL to DuckDB SQL and defines its macros, for handing to the Delta engine. */
export async function resolveForEngine(ctx: LocalContext, sql: string, kind: 'query' | 'expression'): Promise<string> {
  const resolver = new Resolver(new LocalResolverHost(ctx));
  const out = kind === 'query' ? await resolver.resolveQuery(sql) : await resolver.resolveExpression(sql);
  await withDuck((conn) => defineMacros(conn, resolver));
  return out;
}

export async function runQuery(ctx: LocalContext, sql: string): Promise<QueryResult> {
  const resolver = new Resolver(new LocalResolverHost(ctx));
  const duckSql = await resolver.resolveQuery(sql);
  return withDuck(async (conn) => {
    await defineMacros(conn, resolver);
    try {
      return toQueryResult(await conn.runAndReadAll(duckSql));
    } catch (err) {
      throw new InvalidInputError(`query failed: ${(err as Error).message}`, { cause: err });
    }
  });
}
