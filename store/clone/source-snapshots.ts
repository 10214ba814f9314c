import { desc, eq } from 'drizzle-orm';
import type { Db } from '../db';
import { sourceSnapshots } from '../schema';

export type SourceSnapshotRow = typeof sourceSnapshots.$inferSelect;

export async function insertSourceSnapshot(
  db: Db,
  row: typeof sourceSnapshots.$inferInsert,
): Promise<SourceSnapshotRow> {
  const [out] = await db.insert(sourceSnapshots).values(row).returning();
  return out;
}

export async function getSourceSnapshot(db: Db, id: string): Promise<SourceSnapshotRow | undefined> {
  const [row] = await db.select().from(sourceSnapshots).where(eq(sourceSnapshots.id, id));
  return row;
}

/** Newest first, optionally for one source catalog. */
export async function listSourceSnapshots(
  db: Db,
  opts: { sourceCatalog?: string; limit?: number; offset?: number } = {},
): Promise<SourceSnapshotRow[]> {
  return db
    .select()
    .from(sourceSnapshots)
    .where(opts.sourceCatalog ? eq(sourceSnapshots.sourceCatalog, opts.sourceCatalog) : undefined)
    .orderBy(desc(sourceSnapshots.capturedAt))
    .limit(opts.limit ?? 500)
    .offset(opts.offset ?? 0);
}

export async function deleteSourceSnapshot(db: Db, id: string): Promise<boolean> {
  const rows = await db.delete(sourceSnapshots).where(eq(sourceSnapshots.id, id)).returning({ id: sourceSnapshots.id });
  return rows.length > 0;
}
