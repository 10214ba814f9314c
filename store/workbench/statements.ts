import { and, desc, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../db';
import { workbenchHistory, workbenchStatements } from './tables';

export type StatementRow = typeof workbenchStatements.$inferSelect;

/** Statements and results are kept this long after they end (an hour, as the README says). */
export const RESULT_RETENTION_MS = 60 * 60 * 1000;
/** History entries kept per caller. */
export const HISTORY_SIZE = 30;

/**
 * A new statement (RUNNING) and its history entry; the caller's 31st entry evicts the oldest. One statement, so
 * one round trip: its parts all see the table as it was before it, so the new entry and the caller's newest
 * HISTORY_SIZE - 1 earlier ones are kept.
 */
export async function insertStatement(
  db: Db,
  row: {
    id: string;
    caller: string;
    statement: string;
    catalog?: string;
    schema?: string;
    rowLimit: number;
    source?: string;
  },
): Promise<void> {
  const s = workbenchStatements;
  const h = workbenchHistory;
  const source = row.source ?? null;
  await db.execute(sql`
    WITH added AS (
      INSERT INTO ${s} (${sql.identifier(s.id.name)}, ${sql.identifier(s.caller.name)}, ${sql.identifier(s.statement.name)},
        ${sql.identifier(s.catalog.name)}, ${sql.identifier(s.schema.name)}, ${sql.identifier(s.state.name)},
        ${sql.identifier(s.rowLimit.name)}, ${sql.identifier(s.source.name)})
      VALUES (${row.id}, ${row.caller}, ${row.statement}, ${row.catalog ?? null}, ${row.schema ?? null}, 'RUNNING',
        ${row.rowLimit}, ${source})
    ), entry AS (
      INSERT INTO ${h} (${sql.identifier(h.caller.name)}, ${sql.identifier(h.statementId.name)},
        ${sql.identifier(h.statement.name)}, ${sql.identifier(h.state.name)}, ${sql.identifier(h.source.name)})
      VALUES (${row.caller}, ${row.id}, ${row.statement}, 'RUNNING', ${source})
    )
    DELETE FROM ${h}
    WHERE ${h.caller} = ${row.caller}
      AND ${h.id} NOT IN (
        SELECT ${h.id} FROM ${h} WHERE ${h.caller} = ${row.caller} ORDER BY ${h.id} DESC LIMIT ${HISTORY_SIZE - 1}
      )`);
}

/** The end of a statement: its state, result or error, in the statement row and the history entry. */
export async function endStatement(
  db: Db,
  id: string,
  end: {
    state: 'SUCCEEDED' | 'FAILED' | 'CANCELED';
    columns?: { name: string; type: string }[];
    rows?: (string | null)[][];
    truncated?: boolean;
    errorCode?: string;
    errorMessage?: string;
    durationMs: number;
  },
): Promise<void> {
  const rowCount = end.rows?.length ?? null;
  await db
    .update(workbenchStatements)
    .set({
      state: end.state,
      columns: end.columns ?? null,
      rows: end.rows ?? null,
      totalRowCount: rowCount,
      truncated: end.truncated ?? false,
      errorCode: end.errorCode ?? null,
      errorMessage: end.errorMessage ?? null,
      durationMs: end.durationMs,
      endedAt: new Date(),
    })
    .where(and(eq(workbenchStatements.id, id), eq(workbenchStatements.state, 'RUNNING')));
  await db
    .update(workbenchHistory)
    .set({ state: end.state, rowCount, durationMs: end.durationMs })
    .where(eq(workbenchHistory.statementId, id));
}

export async function getStatement(db: Db, id: string): Promise<StatementRow | null> {
  const [row] = await db.select().from(workbenchStatements).where(eq(workbenchStatements.id, id));
  return row ?? null;
}

export async function requestCancel(db: Db, id: string): Promise<void> {
  await db
    .update(workbenchStatements)
    .set({ cancelRequestedAt: new Date() })
    .where(and(eq(workbenchStatements.id, id), isNull(workbenchStatements.cancelRequestedAt)));
}

/** Whether a cancel was asked for any of these running statements (checked by the process running them). */
export async function cancelRequested(db: Db, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .select({ id: workbenchStatements.id })
    .from(workbenchStatements)
    .where(and(inArray(workbenchStatements.id, ids), sql`${workbenchStatements.cancelRequestedAt} IS NOT NULL`));
  return rows.map((r) => r.id);
}

/**
 * Drops statements (and their results) that ended more than an hour ago, and any started more than two hours ago
 * (the longest timeout plus the retention: one whose API process stopped while it ran never records an end).
 */
export async function dropExpiredStatements(db: Db, now = new Date()): Promise<void> {
  await db
    .delete(workbenchStatements)
    .where(
      or(
        lt(workbenchStatements.endedAt, new Date(now.getTime() - RESULT_RETENTION_MS)),
        lt(workbenchStatements.createdAt, new Date(now.getTime() - 2 * RESULT_RETENTION_MS)),
      ),
    );
}

export async function historyOf(db: Db, caller: string) {
  return db
    .select()
    .from(workbenchHistory)
    .where(eq(workbenchHistory.caller, caller))
    .orderBy(desc(workbenchHistory.id))
    .limit(HISTORY_SIZE);
}
