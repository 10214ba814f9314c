import { z } from 'zod';
import { paginationQuery } from '../../schemas/common';
import { markAllRead, recentNotifications, unreadCount } from '../../store/notifications/repo';
import { defineRoutes, route } from '../middleware/route';

const listQuery = paginationQuery(50).extend({
  /** `true` reads without marking anything as seen. */
  peek: z.enum(['true', 'false']).default('false'),
});
const item = z.object({
  id: z.string(),
  type: z.string(),
  message: z.string(),
  timestamp: z.string(),
  status: z.string().nullable(),
  job_id: z.string().nullable(),
  read: z.boolean(),
});

/**
 * GET /api/notifications: job completions (type success) and failures (type failure). unread_count counts
 * the items that arrived since the client last looked; looking marks them seen unless `?peek=true`.
 */
export const notificationRoutes = defineRoutes({
  name: 'notifications',
  routes: [
    route({
      method: 'get',
      path: '/notifications',
      summary: 'Job completions and failures; unread_count counts those since the client last looked',
      request: { query: listQuery },
      response: { description: 'Notifications', schema: z.object({ unread_count: z.number(), items: z.array(item) }) },
      handler: async ({ deps, input: { query: q } }) => {
        const [count, rows] = await Promise.all([
          unreadCount(deps.store.db),
          recentNotifications(deps.store.db, q.limit, q.offset),
        ]);
        if (q.peek === 'false' && count > 0) await markAllRead(deps.store.db);
        return {
          unread_count: count,
          items: rows.map((n) => ({
            id: n.id,
            type: n.type,
            message: n.message,
            timestamp: n.createdAt.toISOString(),
            status: n.status,
            job_id: n.jobId,
            read: n.readAt !== null,
          })),
        };
      },
    }),
    route({
      method: 'post',
      path: '/notifications/read',
      summary: 'Mark every notification seen',
      role: 'viewer',
      response: {
        description: 'Marked',
        schema: z.object({ status: z.literal('read'), marked: z.number() }),
      },
      handler: async ({ deps }) => ({ status: 'read' as const, marked: await markAllRead(deps.store.db) }),
    }),
  ],
});
