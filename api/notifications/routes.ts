import { Router } from 'express';
import { z } from 'zod';
import { markAllRead, recentNotifications, unreadCount } from '../../store/notifications/repo';
import type { RouteModule } from '../deps';
import { parsed, validate } from '../middleware/validate';

const listQuery = z.object({
  limit: z.coerce.number().int().min(1).max(500).default(50),
  /** `true` reads without marking anything as seen. */
  peek: z.enum(['true', 'false']).default('false'),
});
const list = { query: listQuery };

/**
 * GET /api/notifications: job completions (type success) and failures (type failure). unread_count counts
 * the items that arrived since the client last looked; looking marks them seen unless `?peek=true`.
 */
export const notificationRoutes: RouteModule = {
  name: 'notifications',
  router(deps) {
    return Router()
      .get('/notifications', validate(list), async (_req, res) => {
        const q = parsed(res, list).query;
        const [count, rows] = await Promise.all([
          unreadCount(deps.store.db),
          recentNotifications(deps.store.db, q.limit),
        ]);
        if (q.peek === 'false' && count > 0) await markAllRead(deps.store.db);
        res.json({
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
        });
      })
      .post('/notifications/read', async (_req, res) => {
        res.json({ status: 'read', marked: await markAllRead(deps.store.db) });
      });
  },
  openapi(registry) {
    const item = z.object({
      id: z.string(),
      type: z.string(),
      message: z.string(),
      timestamp: z.string(),
      status: z.string().nullable(),
      job_id: z.string().nullable(),
      read: z.boolean(),
    });
    registry.registerPath({
      method: 'get',
      path: '/api/notifications',
      tags: ['notifications'],
      summary: 'Job completions and failures; unread_count counts those since the client last looked',
      request: { query: listQuery },
      responses: {
        200: {
          description: 'Notifications',
          content: { 'application/json': { schema: z.object({ unread_count: z.number(), items: z.array(item) }) } },
        },
      },
    });
    registry.registerPath({
      method: 'post',
      path: '/api/notifications/read',
      tags: ['notifications'],
      summary: 'Mark every notification seen',
      responses: { 200: { description: 'Marked' } },
    });
  },
};
