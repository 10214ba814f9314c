import { asc, eq } from 'drizzle-orm';
import type { Db } from '../db';
import { targets } from '../schema';
import { isEnvelope, type TargetCipher } from './cipher';

export type TargetRow = typeof targets.$inferSelect;
/** A saved target as callers give it: `credentials` in clear, sealed by the repository before it is written. */
export type TargetInput = Omit<typeof targets.$inferInsert, 'createdAt' | 'updatedAt'>;
/** What APIs may show: the credential values are replaced by the list of which ones are set. */
export type TargetView = Omit<TargetRow, 'credentials'> & { credentialKeys: string[] };

/** Which credentials a row holds: the envelope keeps their names (not their values) beside the ciphertext. */
function keysOf(stored: Record<string, string>): string[] {
  if (isEnvelope(stored)) return stored.keys ? stored.keys.split(',') : [];
  return Object.keys(stored).sort();
}

export function redactTarget(row: TargetRow): TargetView {
  const { credentials, ...rest } = row;
  return { ...rest, credentialKeys: keysOf(credentials) };
}

function seal(cipher: TargetCipher, values: Record<string, string>): Record<string, string> {
  return { ...cipher.seal(values), keys: Object.keys(values).sort().join(',') };
}

/**
 * Creates or replaces a saved target by name; its credentials are sealed (AES-256-GCM) before they reach the
 * store. `credentials: undefined` on an existing target keeps the sealed ones it has.
 */
export async function saveTarget(
  db: Db,
  cipher: TargetCipher,
  input: Omit<TargetInput, 'credentials'> & { credentials?: Record<string, string> },
): Promise<TargetView> {
  const now = new Date();
  let credentials: Record<string, string>;
  if (input.credentials) credentials = seal(cipher, input.credentials);
  else {
    const [old] = await db.select().from(targets).where(eq(targets.name, input.name));
    credentials = old
      ? isEnvelope(old.credentials)
        ? old.credentials
        : seal(cipher, old.credentials)
      : seal(cipher, {});
  }
  const values = { ...input, credentials };
  const [row] = await db
    .insert(targets)
    .values({ ...values, updatedAt: now })
    .onConflictDoUpdate({ target: targets.name, set: { ...values, updatedAt: now } })
    .returning();
  return redactTarget(row);
}

export async function listTargets(db: Db): Promise<TargetView[]> {
  const rows = await db.select().from(targets).orderBy(asc(targets.name));
  return rows.map(redactTarget);
}

export async function getTarget(db: Db, name: string): Promise<TargetView | undefined> {
  const [row] = await db.select().from(targets).where(eq(targets.name, name));
  return row && redactTarget(row);
}

/**
 * For activities and routes that connect to the target: the row with its credentials opened. Never hand this to
 * an API response or a log. A row written before credentials were sealed is sealed now.
 */
export async function getTargetWithCredentials(
  db: Db,
  cipher: TargetCipher,
  name: string,
): Promise<TargetRow | undefined> {
  const [row] = await db.select().from(targets).where(eq(targets.name, name));
  if (!row) return undefined;
  if (isEnvelope(row.credentials)) return { ...row, credentials: cipher.open(row.credentials) };
  await db
    .update(targets)
    .set({ credentials: seal(cipher, row.credentials) })
    .where(eq(targets.name, name));
  return row;
}

export async function deleteTarget(db: Db, name: string): Promise<boolean> {
  const rows = await db.delete(targets).where(eq(targets.name, name)).returning({ name: targets.name });
  return rows.length > 0;
}
