import { and, desc, eq, gt, lt, sql } from 'drizzle-orm';
import type { Db } from '../db';
import { notebookRevisions, notebooks, type NotebookCell } from './tables';

export type NotebookRow = typeof notebooks.$inferSelect;

/** Saved states a notebook can step back through (undo), besides the current one. */
export const UNDO_DEPTH = 50;

export class VersionMismatchError extends Error {
  constructor(readonly current: number) {
    super(`the notebook is at version ${current}`);
  }
}

export async function getNotebook(db: Db, id: string): Promise<NotebookRow | null> {
  const [row] = await db.select().from(notebooks).where(eq(notebooks.id, id));
  return row ?? null;
}

export async function listNotebooks(db: Db): Promise<NotebookRow[]> {
  return db.select().from(notebooks).orderBy(desc(notebooks.updatedAt));
}

export async function createNotebook(
  db: Db,
  nb: { id: string; title: string; cells: NotebookCell[]; createdBy: string },
): Promise<NotebookRow> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(notebooks)
      .values({ id: nb.id, title: nb.title, cells: nb.cells, version: 1, revision: 0, createdBy: nb.createdBy })
      .returning();
    await tx.insert(notebookRevisions).values({ notebookId: nb.id, revision: 0, title: nb.title, cells: nb.cells });
    return row;
  });
}

/** Revisions before and after the current one (for can_undo / can_redo). */
export async function neighbours(db: Db, row: NotebookRow): Promise<{ undo: boolean; redo: boolean }> {
  const [r] = await db
    .select({
      before: sql<number>`count(*) FILTER (WHERE ${notebookRevisions.revision} < ${row.revision})`,
      after: sql<number>`count(*) FILTER (WHERE ${notebookRevisions.revision} > ${row.revision})`,
    })
    .from(notebookRevisions)
    .where(eq(notebookRevisions.notebookId, row.id));
  return { undo: Number(r?.before ?? 0) > 0, redo: Number(r?.after ?? 0) > 0 };
}

/**
 * A save at `expectedVersion` (If-Match): a new revision after the current one (revisions after it, left by
 * undo, are dropped; the oldest beyond UNDO_DEPTH go), version + 1. A save that changes nothing adds nothing.
 */
export async function saveNotebook(
  db: Db,
  id: string,
  expectedVersion: number,
  next: { title: string; cells: NotebookCell[] },
  unchanged: (row: NotebookRow) => boolean,
): Promise<NotebookRow | null> {
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(notebooks).where(eq(notebooks.id, id)).for('update');
    if (!row) return null;
    if (row.version !== expectedVersion) throw new VersionMismatchError(row.version);
    if (unchanged(row)) return row;
    const revision = row.revision + 1;
    await tx
      .delete(notebookRevisions)
      .where(and(eq(notebookRevisions.notebookId, id), gt(notebookRevisions.revision, row.revision)));
    await tx.insert(notebookRevisions).values({ notebookId: id, revision, title: next.title, cells: next.cells });
    await tx
      .delete(notebookRevisions)
      .where(and(eq(notebookRevisions.notebookId, id), lt(notebookRevisions.revision, revision - UNDO_DEPTH)));
    const [saved] = await tx
      .update(notebooks)
      .set({ title: next.title, cells: next.cells, version: row.version + 1, revision, updatedAt: new Date() })
      .where(eq(notebooks.id, id))
      .returning();
    return saved;
  });
}

/** Undo (-1) or redo (+1): the neighbouring revision becomes current; null when there is none. */
export async function stepNotebook(db: Db, id: string, direction: -1 | 1): Promise<NotebookRow | 'none' | null> {
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(notebooks).where(eq(notebooks.id, id)).for('update');
    if (!row) return null;
    const [target] = await tx
      .select()
      .from(notebookRevisions)
      .where(
        and(
          eq(notebookRevisions.notebookId, id),
          direction < 0 ? lt(notebookRevisions.revision, row.revision) : gt(notebookRevisions.revision, row.revision),
        ),
      )
      .orderBy(direction < 0 ? desc(notebookRevisions.revision) : notebookRevisions.revision)
      .limit(1);
    if (!target) return 'none';
    const [saved] = await tx
      .update(notebooks)
      .set({
        title: target.title,
        cells: target.cells,
        version: row.version + 1,
        revision: target.revision,
        updatedAt: new Date(),
      })
      .where(eq(notebooks.id, id))
      .returning();
    return saved;
  });
}

/**
 * Stores a cell's output in the notebook and in its current revision (so undo and redo keep outputs), without
 * a new revision; version + 1 so an open tab sees the change. Returns null when the cell is gone.
 */
export async function setCellOutput(
  db: Db,
  id: string,
  cellId: string,
  output: Record<string, unknown>,
): Promise<NotebookRow | null> {
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(notebooks).where(eq(notebooks.id, id)).for('update');
    if (!row || !row.cells.some((c) => c.id === cellId)) return null;
    const cells = row.cells.map((c) => (c.id === cellId ? { ...c, output } : c));
    await tx
      .update(notebookRevisions)
      .set({ cells })
      .where(and(eq(notebookRevisions.notebookId, id), eq(notebookRevisions.revision, row.revision)));
    const [saved] = await tx
      .update(notebooks)
      .set({ cells, version: row.version + 1, updatedAt: new Date() })
      .where(eq(notebooks.id, id))
      .returning();
    return saved;
  });
}

export async function deleteNotebook(db: Db, id: string): Promise<boolean> {
  return db.transaction(async (tx) => {
    const gone = await tx.delete(notebooks).where(eq(notebooks.id, id)).returning({ id: notebooks.id });
    await tx.delete(notebookRevisions).where(eq(notebookRevisions.notebookId, id));
    return gone.length > 0;
  });
}
