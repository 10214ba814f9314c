import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { DeltaField } from '../../platform/local/delta';
import { withDuck } from '../../platform/local/duck';

/** A temp folder per test file, removed after all its tests. */
export function tempRoot(prefix: string): { dir: (name: string) => string; cleanup: () => void } {
  const root = mkdtempSync(path.join(os.tmpdir(), `lakeward-${prefix}-`));
  return { dir: (name) => path.join(root, name), cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

/** Runs DuckDB SQL and returns rows with JSON-friendly values (bigints as strings). */
export async function rows(sql: string): Promise<Record<string, unknown>[]> {
  return withDuck(async (conn) => (await conn.runAndReadAll(sql)).getRowObjectsJson() as Record<string, unknown>[]);
}

/** Rows of a table expression ordered by the given column, as plain objects. */
export async function tableRows(scan: string, orderBy = 'id'): Promise<Record<string, unknown>[]> {
  return rows(`SELECT * FROM ${scan} AS t ORDER BY ${orderBy}`);
}

export const PEOPLE: DeltaField[] = [
  { name: 'id', type: 'bigint', nullable: false },
  { name: 'name', type: 'string', nullable: true },
  { name: 'score', type: 'int', nullable: true },
];

/** n people with ids from `start`. */
export function peopleSql(start: number, n: number): string {
  return `SELECT i::BIGINT AS id, 'p' || i AS name, (i * 10)::INT AS score FROM range(${start}, ${start + n}) t(i)`;
}
