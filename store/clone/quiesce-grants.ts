import { and, eq, ne } from 'drizzle-orm';
import type { Db } from '../db';
import { quiesceGrants } from '../schema';

export type QuiesceGrantRow = typeof quiesceGrants.$inferSelect;

/**
 * Records a revoke before it happens. Callers give back earlier records first, so replacing one (a retried
 * step) never loses a grant that is still revoked.
 */
export async function recordQuiesceGrant(
  db: Db,
  row: Omit<typeof quiesceGrants.$inferInsert, 'status' | 'createdAt' | 'restoredAt'>,
): Promise<void> {
  await db
    .insert(quiesceGrants)
    .values({ ...row, status: 'revoking' })
    .onConflictDoUpdate({
      target: [quiesceGrants.jobId, quiesceGrants.catalog, quiesceGrants.schemaName, quiesceGrants.principal],
      set: {
        privileges: row.privileges,
        interimPrivileges: row.interimPrivileges ?? [],
        workspace: row.workspace,
        status: 'revoking',
        restoredAt: null,
      },
    });
}

export async function quiesceGrantsForJob(db: Db, jobId: string): Promise<QuiesceGrantRow[]> {
  return db.select().from(quiesceGrants).where(eq(quiesceGrants.jobId, jobId));
}

export async function markQuiesceGrants(
  db: Db,
  jobId: string,
  keys: { catalog: string; schemaName: string; principal: string }[],
  status: 'revoked' | 'restored',
): Promise<void> {
  for (const k of keys) {
    await db
      .update(quiesceGrants)
      .set({ status, ...(status === 'restored' ? { restoredAt: new Date() } : {}) })
      .where(
        and(
          eq(quiesceGrants.jobId, jobId),
          eq(quiesceGrants.catalog, k.catalog),
          eq(quiesceGrants.schemaName, k.schemaName),
          eq(quiesceGrants.principal, k.principal),
        ),
      );
  }
}

/** Jobs holding grants not yet given back (for the start-up sweep after a crash). */
export async function jobsWithUnrestoredGrants(db: Db): Promise<string[]> {
  const rows = await db
    .selectDistinct({ jobId: quiesceGrants.jobId })
    .from(quiesceGrants)
    .where(ne(quiesceGrants.status, 'restored'));
  return rows.map((r) => r.jobId);
}
