import { and, asc, count, desc, eq, ilike, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db';
import { dqxCheckAuditLog, dqxChecks } from '../schema';

export type DqCheckRow = typeof dqxChecks.$inferSelect;
export type NewDqCheckRow = typeof dqxChecks.$inferInsert;
export type DqAuditRow = typeof dqxCheckAuditLog.$inferSelect;
export type DqAuditAction = 'create' | 'update' | 'delete' | 'enable' | 'disable' | 'bulk_delete';

/** A stored check in the engine's shape (DqCheck of activities/data-quality/logic). */
export function asDqxCheck(r: DqCheckRow) {
  return {
    id: r.checkId,
    table_fqn: r.tableFqn,
    name: r.name,
    check_function: r.checkFunction,
    arguments: r.arguments,
    criticality: r.criticality === 'warn' ? ('warn' as const) : ('error' as const),
    enabled: r.enabled,
    filter: r.filterExpr,
    user_metadata: r.userMetadata,
  };
}

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

async function audit(
  tx: Tx | Db,
  entries: { checkId: string; tableFqn: string | null; action: DqAuditAction; changes: Record<string, unknown> }[],
  performedBy: string,
): Promise<void> {
  if (entries.length === 0) return;
  await tx.insert(dqxCheckAuditLog).values(entries.map((e) => ({ ...e, performedBy })));
}

/** Checks of one table (or all), ordered by table then name. */
export async function listChecks(
  db: Db,
  opts: { tableFqn?: string; enabled?: boolean; limit?: number; offset?: number } = {},
): Promise<DqCheckRow[]> {
  const where: SQL[] = [];
  if (opts.tableFqn) where.push(eq(dqxChecks.tableFqn, opts.tableFqn));
  if (opts.enabled !== undefined) where.push(eq(dqxChecks.enabled, opts.enabled));
  return db
    .select()
    .from(dqxChecks)
    .where(and(...where))
    .orderBy(asc(dqxChecks.tableFqn), asc(dqxChecks.name), asc(dqxChecks.createdAt), asc(dqxChecks.checkId))
    .limit(opts.limit ?? 100_000)
    .offset(opts.offset ?? 0);
}

export async function getCheck(db: Db, checkId: string): Promise<DqCheckRow | undefined> {
  const [row] = await db.select().from(dqxChecks).where(eq(dqxChecks.checkId, checkId));
  return row;
}

/** The enabled checks a run of `tableFqn` applies: all of them, or those of `checkIds`. */
export async function enabledChecks(db: Db, tableFqn: string, checkIds?: string[]): Promise<DqCheckRow[]> {
  const where = [eq(dqxChecks.tableFqn, tableFqn), eq(dqxChecks.enabled, true)];
  if (checkIds?.length) where.push(inArray(dqxChecks.checkId, checkIds));
  return db
    .select()
    .from(dqxChecks)
    .where(and(...where))
    .orderBy(asc(dqxChecks.name), asc(dqxChecks.checkId));
}

/** Tables with at least one enabled check whose FQN starts with `prefix` (`catalog.` or `catalog.schema.`). */
export async function tablesWithEnabledChecks(db: Db, prefix = ''): Promise<string[]> {
  const rows = await db
    .selectDistinct({ t: dqxChecks.tableFqn })
    .from(dqxChecks)
    .where(and(eq(dqxChecks.enabled, true), ilike(dqxChecks.tableFqn, `${escapeLike(prefix)}%`)))
    .orderBy(asc(dqxChecks.tableFqn));
  return rows.map((r) => r.t);
}

/** Per table of a catalog: how many checks, how many enabled (FQNs compared case-insensitively). */
export async function checkCountsByTable(
  db: Db,
  catalog: string,
): Promise<Map<string, { checkCount: number; enabledCount: number }>> {
  const rows = await db
    .select({
      t: sql<string>`lower(${dqxChecks.tableFqn})`,
      n: count(),
      enabled: sql<number>`count(*) filter (where ${dqxChecks.enabled})`,
    })
    .from(dqxChecks)
    .where(ilike(dqxChecks.tableFqn, `${escapeLike(catalog)}.%`))
    .groupBy(sql`lower(${dqxChecks.tableFqn})`);
  return new Map(rows.map((r) => [r.t, { checkCount: Number(r.n), enabledCount: Number(r.enabled) }]));
}

/** Check counts for the dashboard. */
export async function checkTotals(db: Db): Promise<{ total: number; enabled: number; tables: number }> {
  const [row] = await db
    .select({
      total: count(),
      enabled: sql<number>`count(*) filter (where ${dqxChecks.enabled})`,
      tables: sql<number>`count(distinct ${dqxChecks.tableFqn})`,
    })
    .from(dqxChecks);
  return { total: Number(row?.total ?? 0), enabled: Number(row?.enabled ?? 0), tables: Number(row?.tables ?? 0) };
}

/**
 * Inserts checks in one transaction; with `auditAction` each gets an audit entry (create), with the stored
 * name, function, arguments and criticality as its changes.
 */
export async function insertChecks(
  db: Db,
  rows: NewDqCheckRow[],
  performedBy: string,
  opts: { audit: boolean } = { audit: true },
): Promise<DqCheckRow[]> {
  if (rows.length === 0) return [];
  return db.transaction(async (tx) => {
    const inserted = await tx.insert(dqxChecks).values(rows).returning();
    if (opts.audit)
      await audit(
        tx,
        inserted.map((r) => ({
          checkId: r.checkId,
          tableFqn: r.tableFqn,
          action: 'create' as const,
          changes: {
            name: r.name,
            check_function: r.checkFunction,
            arguments: r.arguments,
            criticality: r.criticality,
          },
        })),
        performedBy,
      );
    return inserted;
  });
}

export type CheckPatch = Partial<
  Pick<NewDqCheckRow, 'name' | 'criticality' | 'checkFunction' | 'arguments' | 'filterExpr' | 'userMetadata'>
>;

const wireName: Record<keyof CheckPatch, string> = {
  name: 'name',
  criticality: 'criticality',
  checkFunction: 'check_function',
  arguments: 'arguments',
  filterExpr: 'filter',
  userMetadata: 'user_metadata',
};

/** Applies `patch`; the audit entry lists each changed field as `{from, to}`. Undefined when the check is gone. */
export async function updateCheck(
  db: Db,
  checkId: string,
  patch: CheckPatch,
  performedBy: string,
): Promise<DqCheckRow | undefined> {
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(dqxChecks).where(eq(dqxChecks.checkId, checkId)).for('update');
    if (!before) return undefined;
    const changes: Record<string, { from: unknown; to: unknown }> = {};
    for (const [key, to] of Object.entries(patch) as [keyof CheckPatch, unknown][]) {
      if (to === undefined) continue;
      const from = before[key] ?? null;
      if (JSON.stringify(from) !== JSON.stringify(to)) changes[wireName[key]] = { from, to };
    }
    const [after] = await tx
      .update(dqxChecks)
      .set({ ...patch, updatedAt: new Date() })
      .where(eq(dqxChecks.checkId, checkId))
      .returning();
    await audit(tx, [{ checkId, tableFqn: after.tableFqn, action: 'update', changes }], performedBy);
    return after;
  });
}

/** Enables or disables a check (audit `enable` / `disable`). Undefined when the check is gone. */
export async function setCheckEnabled(
  db: Db,
  checkId: string,
  enabled: boolean,
  performedBy: string,
): Promise<DqCheckRow | undefined> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(dqxChecks)
      .set({ enabled, updatedAt: new Date() })
      .where(eq(dqxChecks.checkId, checkId))
      .returning();
    if (!row) return undefined;
    await audit(
      tx,
      [{ checkId, tableFqn: row.tableFqn, action: enabled ? 'enable' : 'disable', changes: { enabled } }],
      performedBy,
    );
    return row;
  });
}

/** Deletes one check (audit `delete` with what it was). Undefined when there was none. */
export async function deleteCheck(db: Db, checkId: string, performedBy: string): Promise<DqCheckRow | undefined> {
  return db.transaction(async (tx) => {
    const [row] = await tx.delete(dqxChecks).where(eq(dqxChecks.checkId, checkId)).returning();
    if (!row) return undefined;
    const changes = { name: row.name, check_function: row.checkFunction, arguments: row.arguments };
    await audit(tx, [{ checkId, tableFqn: row.tableFqn, action: 'delete', changes }], performedBy);
    return row;
  });
}

export type BulkScope = { checkIds: string[] } | { tableFqn: string } | { all: true };

/** Deletes by ids, by table or all; one `bulk_delete` audit entry per deleted check, naming the scope. */
export async function deleteChecksBulk(db: Db, scope: BulkScope, performedBy: string): Promise<DqCheckRow[]> {
  const where =
    'checkIds' in scope
      ? inArray(dqxChecks.checkId, scope.checkIds)
      : 'tableFqn' in scope
        ? eq(dqxChecks.tableFqn, scope.tableFqn)
        : sql`true`;
  const scopeName = 'checkIds' in scope ? 'ids' : 'tableFqn' in scope ? 'table' : 'all';
  return db.transaction(async (tx) => {
    const rows = await tx.delete(dqxChecks).where(where).returning();
    await audit(
      tx,
      rows.map((r) => ({
        checkId: r.checkId,
        tableFqn: r.tableFqn,
        action: 'bulk_delete' as const,
        changes: { scope: scopeName, name: r.name, check_function: r.checkFunction },
      })),
      performedBy,
    );
    return rows;
  });
}

/** Audit entries, newest first, for a check or a table (or all). */
export async function auditLog(
  db: Db,
  opts: { checkId?: string; tableFqn?: string; limit?: number; offset?: number },
): Promise<DqAuditRow[]> {
  const where: SQL[] = [];
  if (opts.checkId) where.push(eq(dqxCheckAuditLog.checkId, opts.checkId));
  if (opts.tableFqn) where.push(eq(dqxCheckAuditLog.tableFqn, opts.tableFqn));
  return db
    .select()
    .from(dqxCheckAuditLog)
    .where(and(...where))
    .orderBy(desc(dqxCheckAuditLog.auditId))
    .limit(opts.limit ?? 100)
    .offset(opts.offset ?? 0);
}

function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}
