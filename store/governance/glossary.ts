import { and, asc, eq, ilike, inArray, or, type SQL } from 'drizzle-orm';
import type { Db } from '../db';
import { glossaryLinks, glossaryTerms, governanceChanges } from '../schema';

export type GlossaryTermRow = typeof glossaryTerms.$inferSelect;
export type NewGlossaryTermRow = typeof glossaryTerms.$inferInsert;
export type GovernanceChangeRow = typeof governanceChanges.$inferSelect;

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

async function change(tx: Tx, termId: string, changeType: string, by: string, details: Record<string, unknown>) {
  await tx
    .insert(governanceChanges)
    .values({ entityType: 'glossary_term', entityId: termId, changeType, changedBy: by, details });
}

export async function listTerms(db: Db, f: { status?: string; domain?: string; q?: string }) {
  const where: SQL[] = [];
  if (f.status) where.push(eq(glossaryTerms.status, f.status));
  if (f.domain) where.push(eq(glossaryTerms.domain, f.domain));
  if (f.q) {
    const like = `%${f.q.replace(/[\\%_]/g, '\\$&')}%`;
    where.push(
      or(
        ilike(glossaryTerms.name, like),
        ilike(glossaryTerms.abbreviation, like),
        ilike(glossaryTerms.definition, like),
      )!,
    );
  }
  return db
    .select()
    .from(glossaryTerms)
    .where(where.length ? and(...where) : undefined)
    .orderBy(asc(glossaryTerms.name));
}

export async function getTerm(db: Db, termId: string): Promise<GlossaryTermRow | null> {
  const [row] = await db.select().from(glossaryTerms).where(eq(glossaryTerms.termId, termId));
  return row ?? null;
}

/** Linked columns per term id. */
export async function linksOf(db: Db, termIds: string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>(termIds.map((id) => [id, []]));
  if (termIds.length === 0) return out;
  const rows = await db
    .select()
    .from(glossaryLinks)
    .where(inArray(glossaryLinks.termId, termIds))
    .orderBy(asc(glossaryLinks.columnFqn));
  for (const r of rows) out.get(r.termId)?.push(r.columnFqn);
  return out;
}

export function historyOf(db: Db, termId: string): Promise<GovernanceChangeRow[]> {
  return db
    .select()
    .from(governanceChanges)
    .where(and(eq(governanceChanges.entityType, 'glossary_term'), eq(governanceChanges.entityId, termId)))
    .orderBy(asc(governanceChanges.changeId));
}

export function createTerm(db: Db, row: NewGlossaryTermRow): Promise<GlossaryTermRow> {
  return db.transaction(async (tx) => {
    const [created] = await tx.insert(glossaryTerms).values(row).returning();
    await change(tx, created.termId, 'created', row.createdBy, { name: created.name, status: created.status });
    return created;
  });
}

/**
 * Applies `set` to a term (optionally only when its status is `fromStatus`) and records the change with the fields
 * that changed as `{from, to}`. Null when the term does not exist (or is not in `fromStatus`).
 */
export function updateTerm(
  db: Db,
  termId: string,
  set: Partial<NewGlossaryTermRow>,
  by: string,
  changeType: string,
  fromStatus?: string,
): Promise<GlossaryTermRow | null> {
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(glossaryTerms).where(eq(glossaryTerms.termId, termId)).for('update');
    if (!before || (fromStatus && before.status !== fromStatus)) return null;
    const [after] = await tx
      .update(glossaryTerms)
      .set({ ...set, updatedBy: by, updatedAt: new Date() })
      .where(eq(glossaryTerms.termId, termId))
      .returning();
    const diff: Record<string, unknown> = {};
    for (const key of Object.keys(set) as (keyof GlossaryTermRow)[])
      if (JSON.stringify(before[key]) !== JSON.stringify(after[key])) diff[key] = { from: before[key], to: after[key] };
    await change(tx, termId, changeType, by, diff);
    return after;
  });
}

/** Links columns (each once); records the columns newly linked. */
export function linkColumns(db: Db, termId: string, columns: string[], by: string): Promise<string[]> {
  return db.transaction(async (tx) => {
    const added = await tx
      .insert(glossaryLinks)
      .values(columns.map((columnFqn) => ({ termId, columnFqn, createdBy: by })))
      .onConflictDoNothing()
      .returning();
    const names = added.map((a) => a.columnFqn);
    if (names.length) await change(tx, termId, 'linked', by, { columns: names });
    return names;
  });
}

/** Deletes a term and its links; its history stays (with a `deleted` entry). */
export function deleteTerm(db: Db, termId: string, by: string): Promise<GlossaryTermRow | null> {
  return db.transaction(async (tx) => {
    const [gone] = await tx.delete(glossaryTerms).where(eq(glossaryTerms.termId, termId)).returning();
    if (!gone) return null;
    await tx.delete(glossaryLinks).where(eq(glossaryLinks.termId, termId));
    await change(tx, termId, 'deleted', by, { name: gone.name });
    return gone;
  });
}
