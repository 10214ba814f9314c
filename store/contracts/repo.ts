import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../db';
import { contractAttachments, contracts, contractValidations, contractVersions } from './tables';

export type ContractRow = typeof contracts.$inferSelect;
export type ContractVersionRow = typeof contractVersions.$inferSelect;
export type ContractValidationRow = typeof contractValidations.$inferSelect;
export type NewContractValidation = typeof contractValidations.$inferInsert;

export async function getContract(db: Db, name: string): Promise<ContractRow | undefined> {
  const [row] = await db.select().from(contracts).where(eq(contracts.name, name));
  return row;
}

export async function listContracts(db: Db, status?: string): Promise<ContractRow[]> {
  return db
    .select()
    .from(contracts)
    .where(status ? eq(contracts.status, status) : undefined)
    .orderBy(contracts.name)
    .limit(1000);
}

/** Creates the contract with a draft, or opens a draft on an existing one (which must have none). */
export async function putDraft(
  db: Db,
  name: string,
  draft: Record<string, unknown>,
  by: string,
  opts: { create: boolean },
): Promise<ContractRow> {
  if (opts.create) {
    const [row] = await db
      .insert(contracts)
      .values({ name, status: 'draft', draft, createdBy: by, updatedBy: by })
      .returning();
    return row;
  }
  const [row] = await db
    .update(contracts)
    .set({ status: 'draft', draft, updatedBy: by, updatedAt: new Date() })
    .where(eq(contracts.name, name))
    .returning();
  return row;
}

/**
 * The draft becomes version `version`, in one transaction: the version row is inserted (the primary key refuses
 * a second publish of the same version) and the draft cleared only if it is still the one published.
 */
export async function publishDraft(
  db: Db,
  name: string,
  version: string,
  document: Record<string, unknown>,
  by: string,
): Promise<boolean> {
  return db.transaction(async (tx) => {
    const cleared = await tx
      .update(contracts)
      .set({ status: 'active', draft: null, latestVersion: version, updatedBy: by, updatedAt: new Date() })
      .where(and(eq(contracts.name, name), sql`${contracts.draft} ->> 'id' = ${`${name}@${version}`}`))
      .returning();
    if (cleared.length === 0) return false;
    await tx.insert(contractVersions).values({ name, version, document, publishedBy: by });
    return true;
  });
}

export async function setContractStatus(db: Db, name: string, status: string, by: string): Promise<void> {
  await db.update(contracts).set({ status, updatedBy: by, updatedAt: new Date() }).where(eq(contracts.name, name));
}

export async function getVersion(db: Db, name: string, version: string): Promise<ContractVersionRow | undefined> {
  const [row] = await db
    .select()
    .from(contractVersions)
    .where(and(eq(contractVersions.name, name), eq(contractVersions.version, version)));
  return row;
}

export async function listVersions(db: Db, name: string): Promise<ContractVersionRow[]> {
  return db
    .select()
    .from(contractVersions)
    .where(eq(contractVersions.name, name))
    .orderBy(contractVersions.publishedAt);
}

export async function attach(db: Db, name: string, tableFqn: string, by: string): Promise<void> {
  await db.insert(contractAttachments).values({ name, tableFqn, attachedBy: by }).onConflictDoNothing();
}

/** Removes one attachment, or all of a contract's; returns the tables detached. */
export async function detach(db: Db, name: string, tableFqn?: string): Promise<string[]> {
  const rows = await db
    .delete(contractAttachments)
    .where(and(eq(contractAttachments.name, name), tableFqn ? eq(contractAttachments.tableFqn, tableFqn) : undefined))
    .returning();
  return rows.map((r) => r.tableFqn);
}

export async function attachmentsOf(db: Db, name: string): Promise<string[]> {
  const rows = await db.select().from(contractAttachments).where(eq(contractAttachments.name, name));
  return rows.map((r) => r.tableFqn).sort();
}

/** Contracts attached to a table (case-insensitive). */
export async function contractsOfTable(db: Db, tableFqn: string): Promise<string[]> {
  const rows = await db
    .select()
    .from(contractAttachments)
    .where(sql`lower(${contractAttachments.tableFqn}) = ${tableFqn.toLowerCase()}`);
  return rows.map((r) => r.name);
}

export async function recordValidation(db: Db, row: NewContractValidation): Promise<ContractValidationRow> {
  const [saved] = await db.insert(contractValidations).values(row).returning();
  return saved;
}

export async function validationsOf(
  db: Db,
  filter: { name?: string; jobId?: string },
  limit = 50,
): Promise<ContractValidationRow[]> {
  return db
    .select()
    .from(contractValidations)
    .where(
      and(
        filter.name ? eq(contractValidations.name, filter.name) : undefined,
        filter.jobId ? eq(contractValidations.jobId, filter.jobId) : undefined,
      ),
    )
    .orderBy(desc(contractValidations.createdAt), desc(contractValidations.id))
    .limit(limit);
}
