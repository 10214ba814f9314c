import { asc, eq } from 'drizzle-orm';
import type { Db } from '../db';
import { targets } from '../schema';

export type TargetRow = typeof targets.$inferSelect;
export type TargetInput = Omit<typeof targets.$inferInsert, 'createdAt' | 'updatedAt'>;
/** What APIs may show: the credential values are replaced by the list of which ones are set. */
export type TargetView = Omit<TargetRow, 'credentials'> & { credentialKeys: string[] };

export function redactTarget(row: TargetRow): TargetView {
  const { credentials, ...rest } = row;
  return { ...rest, credentialKeys: Object.keys(credentials).sort() };
}

/** Creates or replaces a saved target by name. */
export async function saveTarget(db: Db, input: TargetInput): Promise<TargetView> {
  const now = new Date();
  const [row] = await db
    .insert(targets)
    .values({ ...input, updatedAt: now })
    .onConflictDoUpdate({ target: targets.name, set: { ...input, updatedAt: now } })
    .returning();
  return redactTarget(row);
}

export async function listTargets(db: Db): Promise<TargetView[]> {
  const rows = await db.select().from(targets).orderBy(asc(targets.name));
  return rows.map(redactTarget);
}

export async function getTarget(db: Db, name: string): Promise<TargetView | undefined> {
  const row = await getTargetWithCredentials(db, name);
  return row && redactTarget(row);
}

/** For activities that connect to the target; never hand this to an API response. */
export async function getTargetWithCredentials(db: Db, name: string): Promise<TargetRow | undefined> {
  const [row] = await db.select().from(targets).where(eq(targets.name, name));
  return row;
}

export async function deleteTarget(db: Db, name: string): Promise<boolean> {
  const rows = await db.delete(targets).where(eq(targets.name, name)).returning({ name: targets.name });
  return rows.length > 0;
}
