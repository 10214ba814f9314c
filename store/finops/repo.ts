import { and, asc, desc, eq, gte, inArray } from 'drizzle-orm';
import type { Db } from '../db';
import { finopsJobSpans, finopsListPrices, finopsStorageSnapshots, jobs } from '../schema';

/**
 * The ledger's store API (budgets, recommendations and COPQ read cost through it or through the SQL of
 * activities/finops/logic/views.ts over the system tables it derives):
 * - `listJobSpans(db, since?)`: every span a job held a warehouse (job_id, job_type, warehouse_id, started/ended)
 * - `listStorageSnapshots(db, since?)`: bytes per table per day
 * - `listListPrices(db)`: every price with the time it took effect
 */
export type JobSpanRow = typeof finopsJobSpans.$inferSelect;
export type StorageSnapshotRow = typeof finopsStorageSnapshots.$inferSelect;
export type ListPriceRow = typeof finopsListPrices.$inferSelect;

export async function recordJobSpans(db: Db, spans: (typeof finopsJobSpans.$inferInsert)[]): Promise<void> {
  if (!spans.length) return;
  await db.insert(finopsJobSpans).values(spans).onConflictDoNothing();
}

export async function listJobSpans(db: Db, since?: Date): Promise<JobSpanRow[]> {
  const q = db.select().from(finopsJobSpans);
  return (since ? q.where(gte(finopsJobSpans.endedAt, since)) : q).orderBy(asc(finopsJobSpans.seq));
}

export async function recordStorageSnapshot(
  db: Db,
  usageDate: string,
  tables: { tableName: string; bytes: number }[],
): Promise<void> {
  if (!tables.length) return;
  await db
    .insert(finopsStorageSnapshots)
    .values(tables.map((t) => ({ usageDate, ...t })))
    .onConflictDoNothing();
}

export async function listStorageSnapshots(db: Db, since?: string): Promise<StorageSnapshotRow[]> {
  const q = db.select().from(finopsStorageSnapshots);
  return (since ? q.where(gte(finopsStorageSnapshots.usageDate, since)) : q).orderBy(
    asc(finopsStorageSnapshots.usageDate),
    asc(finopsStorageSnapshots.tableName),
  );
}

/** Adds a price row when `priceUsd` differs from the SKU's latest one (the first price starts at `from`). */
export async function notePrice(
  db: Db,
  p: { skuName: string; usageUnit: string; priceUsd: string },
  at: Date,
  from: Date,
): Promise<void> {
  const [latest] = await db
    .select()
    .from(finopsListPrices)
    .where(eq(finopsListPrices.skuName, p.skuName))
    .orderBy(desc(finopsListPrices.priceStartTime))
    .limit(1);
  if (latest && latest.priceUsd === p.priceUsd) return;
  await db
    .insert(finopsListPrices)
    .values({ ...p, priceStartTime: latest ? at : from })
    .onConflictDoNothing();
}

export async function listListPrices(db: Db): Promise<ListPriceRow[]> {
  return db
    .select()
    .from(finopsListPrices)
    .orderBy(asc(finopsListPrices.skuName), asc(finopsListPrices.priceStartTime));
}

export async function spansOfJob(db: Db, jobId: string): Promise<JobSpanRow[]> {
  return db
    .select()
    .from(finopsJobSpans)
    .where(and(eq(finopsJobSpans.jobId, jobId)))
    .orderBy(asc(finopsJobSpans.seq));
}

/** Who started each job (the job row's user), for the ledger's identity_metadata.run_as. */
export async function jobUsers(db: Db, jobIds: string[]): Promise<Map<string, string>> {
  const ids = [...new Set(jobIds)];
  if (!ids.length) return new Map();
  const rows = await db.select({ jobId: jobs.jobId, user: jobs.user }).from(jobs).where(inArray(jobs.jobId, ids));
  return new Map(rows.filter((r) => r.user).map((r) => [r.jobId, r.user!]));
}
