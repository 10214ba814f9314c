import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db';
import { mdmRefAliases, mdmRefCodes, mdmRefDomains } from './steward-tables';

export type RefDomainRow = typeof mdmRefDomains.$inferSelect;
export type RefCodeRow = typeof mdmRefCodes.$inferSelect;

export async function listDomains(db: Db) {
  const domains = await db.select().from(mdmRefDomains).orderBy(asc(mdmRefDomains.name));
  const counts = await db
    .select({ domain: mdmRefCodes.domain, n: sql<number>`count(*)::int` })
    .from(mdmRefCodes)
    .groupBy(mdmRefCodes.domain);
  const by = new Map(counts.map((c) => [c.domain, Number(c.n)]));
  return domains.map((d) => ({ ...d, codeCount: by.get(d.name) ?? 0 }));
}

export async function getDomain(db: Db, name: string): Promise<RefDomainRow | undefined> {
  const [row] = await db.select().from(mdmRefDomains).where(eq(mdmRefDomains.name, name));
  return row;
}

export async function ensureDomain(db: Db, name: string, description: string | null, builtin = false) {
  await db.insert(mdmRefDomains).values({ name, description, builtin }).onConflictDoNothing();
}

export async function listCodes(db: Db, domain: string): Promise<RefCodeRow[]> {
  return db.select().from(mdmRefCodes).where(eq(mdmRefCodes.domain, domain)).orderBy(asc(mdmRefCodes.code));
}

export async function getCode(db: Db, domain: string, code: string): Promise<RefCodeRow | undefined> {
  const [row] = await db
    .select()
    .from(mdmRefCodes)
    .where(and(eq(mdmRefCodes.domain, domain), eq(mdmRefCodes.code, code)));
  return row;
}

/** Which codes already own these normalised aliases (the code itself is one of its aliases). */
export async function aliasOwners(db: Db, domain: string, aliases: string[]): Promise<Map<string, string>> {
  if (aliases.length === 0) return new Map();
  const rows = await db
    .select()
    .from(mdmRefAliases)
    .where(and(eq(mdmRefAliases.domain, domain), inArray(mdmRefAliases.alias, aliases)));
  return new Map(rows.map((r) => [r.alias, r.code]));
}

/** Writes a code and replaces its alias rows (in one transaction). */
export async function putCode(
  db: Db,
  row: typeof mdmRefCodes.$inferInsert,
  normalisedAliases: string[],
): Promise<RefCodeRow> {
  return db.transaction(async (tx) => {
    const [saved] = await tx
      .insert(mdmRefCodes)
      .values(row)
      .onConflictDoUpdate({
        target: [mdmRefCodes.domain, mdmRefCodes.code],
        set: {
          description: row.description,
          aliases: row.aliases,
          parent: row.parent,
          validFrom: row.validFrom,
          validTo: row.validTo,
          updatedAt: new Date(),
        },
      })
      .returning();
    await tx.delete(mdmRefAliases).where(and(eq(mdmRefAliases.domain, row.domain), eq(mdmRefAliases.code, row.code)));
    if (normalisedAliases.length)
      await tx
        .insert(mdmRefAliases)
        .values(normalisedAliases.map((alias) => ({ domain: row.domain, alias, code: row.code })));
    return saved;
  });
}

/** Loads a whole domain at once (the built-ins): codes and alias rows, skipped when the domain has codes. */
export async function seedDomain(
  db: Db,
  domain: { name: string; description: string },
  codes: (typeof mdmRefCodes.$inferInsert)[],
  aliases: { alias: string; code: string }[],
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const inserted = await tx
      .insert(mdmRefDomains)
      .values({ name: domain.name, description: domain.description, builtin: true })
      .onConflictDoNothing()
      .returning();
    if (inserted.length === 0) return false;
    for (let i = 0; i < codes.length; i += 500) await tx.insert(mdmRefCodes).values(codes.slice(i, i + 500));
    const rows = aliases.map((a) => ({ domain: domain.name, ...a }));
    for (let i = 0; i < rows.length; i += 1000) await tx.insert(mdmRefAliases).values(rows.slice(i, i + 1000));
    return true;
  });
}

/** Every alias row with its code's validity (the SQL mapping table's content). */
export async function allAliases(db: Db) {
  return db
    .select({
      domain: mdmRefAliases.domain,
      alias: mdmRefAliases.alias,
      code: mdmRefAliases.code,
      validFrom: mdmRefCodes.validFrom,
      validTo: mdmRefCodes.validTo,
    })
    .from(mdmRefAliases)
    .innerJoin(mdmRefCodes, and(eq(mdmRefCodes.domain, mdmRefAliases.domain), eq(mdmRefCodes.code, mdmRefAliases.code)))
    .orderBy(asc(mdmRefAliases.domain), asc(mdmRefAliases.alias));
}
