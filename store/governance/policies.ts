import { asc, eq } from 'drizzle-orm';
import type { Db } from '../db';
import { accessPolicies, pluginStates } from '../schema';

export type AccessPolicyRow = typeof accessPolicies.$inferSelect;
export type NewAccessPolicyRow = typeof accessPolicies.$inferInsert;
export type PluginStateRow = typeof pluginStates.$inferSelect;

/** Every policy in evaluation order (the order they were created in). */
export function listPolicies(db: Db): Promise<AccessPolicyRow[]> {
  return db.select().from(accessPolicies).orderBy(asc(accessPolicies.position));
}

/** Inserts a policy; false when one with that name exists. */
export async function insertPolicy(db: Db, row: NewAccessPolicyRow): Promise<AccessPolicyRow | null> {
  const [created] = await db.insert(accessPolicies).values(row).onConflictDoNothing().returning();
  return created ?? null;
}

export async function deletePolicy(db: Db, name: string): Promise<AccessPolicyRow | null> {
  const [gone] = await db.delete(accessPolicies).where(eq(accessPolicies.name, name)).returning();
  return gone ?? null;
}

export function listPluginStates(db: Db): Promise<PluginStateRow[]> {
  return db.select().from(pluginStates);
}

export async function setPluginState(db: Db, name: string, enabled: boolean, updatedBy: string) {
  const values = { name, enabled, updatedBy, updatedAt: new Date() };
  const [row] = await db
    .insert(pluginStates)
    .values(values)
    .onConflictDoUpdate({ target: pluginStates.name, set: { enabled, updatedBy, updatedAt: values.updatedAt } })
    .returning();
  return row;
}
