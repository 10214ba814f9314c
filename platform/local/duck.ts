import { AsyncLocalStorage } from 'node:async_hooks';
import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';

/**
 * One in-memory DuckDB instance per process, shared by the Delta engine and the local workspace.
 * DuckDB is only a compute engine here: nothing is persisted in a DuckDB file (two processes, the API
 * and a worker, open the same local workspace, and DuckDB allows one writer per database file).
 */
let instance: Promise<DuckDBInstance> | null = null;

export function duckInstance(): Promise<DuckDBInstance> {
  if (!instance) {
    instance = DuckDBInstance.create(':memory:', {
      threads: String(Math.max(2, Number(process.env.LAKEWARD_DUCKDB_THREADS ?? 2))),
    });
  }
  return instance;
}

/**
 * Where `withDuck` takes its instance from while a scope is active: a warehouse's engine pool
 * (platform/local/warehouse-pool.ts) hands out one of its clusters for the call, queueing when all are busy.
 */
export interface DuckScope {
  withInstance<T>(fn: (instance: DuckDBInstance) => Promise<T>): Promise<T>;
}
const scopes = new AsyncLocalStorage<DuckScope>();

/** Runs `fn` with every `withDuck` inside it (however deep) served by `scope`. */
export function runInDuckScope<T>(scope: DuckScope, fn: () => Promise<T>): Promise<T> {
  return scopes.run(scope, fn);
}

/** Which instance a connection belongs to: per-instance state (macros) is keyed by it. */
const owners = new WeakMap<DuckDBConnection, DuckDBInstance>();
export function instanceOf(conn: DuckDBConnection): object {
  return owners.get(conn) ?? conn;
}

/** Runs `fn` with a fresh connection (cheap) and closes it afterwards. */
export async function withDuck<T>(fn: (conn: DuckDBConnection) => Promise<T>): Promise<T> {
  const scope = scopes.getStore();
  if (scope) return scope.withInstance((instance) => onConnection(instance, fn));
  return onConnection(await duckInstance(), fn);
}

async function onConnection<T>(instance: DuckDBInstance, fn: (conn: DuckDBConnection) => Promise<T>): Promise<T> {
  const conn = await instance.connect();
  owners.set(conn, instance);
  try {
    return await fn(conn);
  } finally {
    conn.closeSync();
  }
}

/** Quotes an identifier for DuckDB. */
export function duckIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

/** Quotes a string literal for DuckDB. */
export function duckString(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}
