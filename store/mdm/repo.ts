import { asc, eq } from 'drizzle-orm';
import type { Db } from '../db';
import { mdmAudit, mdmModels, mdmSources } from './tables';

export type MdmModelRow = typeof mdmModels.$inferSelect;
export type MdmSourceRow = typeof mdmSources.$inferSelect;
export type NewMdmSourceRow = typeof mdmSources.$inferInsert;

export async function getModel(db: Db, entityType: string): Promise<MdmModelRow | undefined> {
  const [row] = await db.select().from(mdmModels).where(eq(mdmModels.entityType, entityType));
  return row;
}

export async function listModels(db: Db): Promise<MdmModelRow[]> {
  return db.select().from(mdmModels).orderBy(asc(mdmModels.entityType));
}

/** Creates or replaces the model; answers whether it existed before. */
export async function putModel(db: Db, entityType: string, definition: Record<string, unknown>) {
  const existed = Boolean(await getModel(db, entityType));
  const now = new Date();
  const [row] = await db
    .insert(mdmModels)
    .values({ entityType, definition, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({ target: mdmModels.entityType, set: { definition, updatedAt: now } })
    .returning();
  return { row, existed };
}

export async function getSource(db: Db, system: string): Promise<MdmSourceRow | undefined> {
  const [row] = await db.select().from(mdmSources).where(eq(mdmSources.system, system));
  return row;
}

export async function listSources(db: Db, entityType?: string): Promise<MdmSourceRow[]> {
  const q = db.select().from(mdmSources);
  const filtered = entityType ? q.where(eq(mdmSources.entityType, entityType)) : q;
  return filtered.orderBy(asc(mdmSources.system));
}

export async function insertSource(db: Db, row: NewMdmSourceRow): Promise<MdmSourceRow> {
  const [created] = await db.insert(mdmSources).values(row).returning();
  return created;
}

export async function updateSource(db: Db, system: string, patch: Partial<NewMdmSourceRow>): Promise<MdmSourceRow> {
  const [row] = await db
    .update(mdmSources)
    .set({ ...patch, updatedAt: new Date() })
    .where(eq(mdmSources.system, system))
    .returning();
  return row;
}

export async function deleteSource(db: Db, system: string): Promise<boolean> {
  const gone = await db.delete(mdmSources).where(eq(mdmSources.system, system)).returning();
  return gone.length > 0;
}

export async function recordMdmAudit(
  db: Db,
  entry: { actor: string; action: string; objectType: string; objectId: string; details?: Record<string, unknown> },
): Promise<void> {
  await db.insert(mdmAudit).values(entry);
}
