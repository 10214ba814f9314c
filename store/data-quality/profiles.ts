import { countDistinct, desc, eq } from 'drizzle-orm';
import type { Db } from '../db';
import { dqxCheckDefinitions, dqxProfiles } from '../schema';

export type DqProfileRow = typeof dqxProfiles.$inferSelect;
export type NewDqProfileRow = typeof dqxProfiles.$inferInsert;
export type DqDefinitionRow = typeof dqxCheckDefinitions.$inferSelect;

/** Stores a profile (upsert on its id: a retried profiling activity writes it once). */
export async function saveProfile(db: Db, row: NewDqProfileRow): Promise<DqProfileRow> {
  const [saved] = await db
    .insert(dqxProfiles)
    .values(row)
    .onConflictDoUpdate({ target: dqxProfiles.profileId, set: { ...row } })
    .returning();
  return saved;
}

/** The newest profile of a table. */
export async function latestProfile(db: Db, tableFqn: string): Promise<DqProfileRow | undefined> {
  const [row] = await db
    .select()
    .from(dqxProfiles)
    .where(eq(dqxProfiles.tableFqn, tableFqn))
    .orderBy(desc(dqxProfiles.profiledAt), desc(dqxProfiles.profileId))
    .limit(1);
  return row;
}

/** Profiles, newest first, optionally of one table. */
export async function listProfiles(
  db: Db,
  opts: { tableFqn?: string; limit?: number; offset?: number } = {},
): Promise<DqProfileRow[]> {
  return db
    .select()
    .from(dqxProfiles)
    .where(opts.tableFqn ? eq(dqxProfiles.tableFqn, opts.tableFqn) : undefined)
    .orderBy(desc(dqxProfiles.profiledAt), desc(dqxProfiles.profileId))
    .limit(opts.limit ?? 50)
    .offset(opts.offset ?? 0);
}

export async function profiledTableCount(db: Db): Promise<number> {
  const [row] = await db.select({ n: countDistinct(dqxProfiles.tableFqn) }).from(dqxProfiles);
  return Number(row?.n ?? 0);
}

/** Keeps a check set as YAML (an import, an export saved to a table, …). */
export async function saveCheckDefinition(
  db: Db,
  row: typeof dqxCheckDefinitions.$inferInsert,
): Promise<DqDefinitionRow> {
  const [saved] = await db.insert(dqxCheckDefinitions).values(row).returning();
  return saved;
}
