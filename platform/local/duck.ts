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

/** Runs `fn` with a fresh connection (cheap) and closes it afterwards. */
export async function withDuck<T>(fn: (conn: DuckDBConnection) => Promise<T>): Promise<T> {
  const conn = await (await duckInstance()).connect();
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
