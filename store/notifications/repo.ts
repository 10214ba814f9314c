import { count, desc, isNull } from 'drizzle-orm';
import type { Db } from '../db';
import { notifications } from '../schema';

export type NotificationRow = typeof notifications.$inferSelect;
export type NewNotification = typeof notifications.$inferInsert;

export async function addNotification(db: Db, n: NewNotification): Promise<NotificationRow> {
  const [row] = await db.insert(notifications).values(n).returning();
  return row;
}

/** Newest first. */
export async function recentNotifications(db: Db, limit = 50, offset = 0): Promise<NotificationRow[]> {
  return db.select().from(notifications).orderBy(desc(notifications.createdAt)).limit(limit).offset(offset);
}

export async function unreadCount(db: Db): Promise<number> {
  const [row] = await db.select({ n: count() }).from(notifications).where(isNull(notifications.readAt));
  return Number(row?.n ?? 0);
}

/** Marks everything unread as read (the client has looked); returns how many changed. */
export async function markAllRead(db: Db, at: Date = new Date()): Promise<number> {
  const rows = await db
    .update(notifications)
    .set({ readAt: at })
    .where(isNull(notifications.readAt))
    .returning({ id: notifications.id });
  return rows.length;
}
