import { Router } from 'express';
import { z } from 'zod';
import { snapshotView } from '../../activities/clone/logic/snapshot-view';
import { captureSnapshot } from './snapshot-capture';
import { ErrorBodySchema } from '../../schemas/common';
import { snapshotCreateSchema, snapshotListQuerySchema, snapshotParamsSchema } from '../../schemas/safety';
import { deleteSourceSnapshot, getSourceSnapshot, listSourceSnapshots } from '../../store/clone/source-snapshots';
import type { RouteModule } from '../deps';
import { notFound } from '../middleware/http-error';
import { parsed, validate } from '../middleware/validate';

const create = { body: snapshotCreateSchema };
const list = { query: snapshotListQuerySchema };
const byId = { params: snapshotParamsSchema };

/** Source snapshots: capture a catalog's table versions, list, read, delete. A clone uses one via source_snapshot_id. */
export const snapshotRoutes: RouteModule = {
  name: 'snapshots',
  router(deps) {
    const router = Router();
    router.post('/clone-snapshots', validate(create), async (req, res) => {
      const ws = await deps.workspaces.resolve(req);
      const row = await captureSnapshot(deps.store.db, ws, parsed(res, create).body);
      res.status(201).json(snapshotView(row));
    });
    router.get('/clone-snapshots', validate(list), async (_req, res) => {
      const q = parsed(res, list).query;
      const rows = await listSourceSnapshots(deps.store.db, { sourceCatalog: q.source_catalog, limit: q.limit });
      res.json({ snapshots: rows.map((r) => snapshotView(r, false)) });
    });
    router.get('/clone-snapshots/:snapshotId', validate(byId), async (_req, res) => {
      const { snapshotId } = parsed(res, byId).params;
      const row = await getSourceSnapshot(deps.store.db, snapshotId);
      if (!row) throw notFound(`snapshot ${snapshotId} not found`);
      res.json(snapshotView(row));
    });
    router.delete('/clone-snapshots/:snapshotId', validate(byId), async (_req, res) => {
      const { snapshotId } = parsed(res, byId).params;
      if (!(await deleteSourceSnapshot(deps.store.db, snapshotId))) throw notFound(`snapshot ${snapshotId} not found`);
      res.json({ snapshot_id: snapshotId, status: 'deleted' });
    });
    return router;
  },
  openapi(registry) {
    const error = (description: string) => ({
      description,
      content: { 'application/json': { schema: ErrorBodySchema } },
    });
    const json = (description: string) => ({
      description,
      content: { 'application/json': { schema: z.record(z.string(), z.unknown()) } },
    });
    registry.registerPath({
      method: 'post',
      path: '/api/clone-snapshots',
      tags: ['snapshots'],
      summary: 'Capture every table version of a catalog',
      request: { body: { content: { 'application/json': { schema: snapshotCreateSchema } } } },
      responses: { 201: json('Snapshot'), 400: error('Invalid request'), 404: error('Unknown catalog') },
    });
    registry.registerPath({
      method: 'get',
      path: '/api/clone-snapshots',
      tags: ['snapshots'],
      summary: 'Snapshots, newest first',
      request: { query: snapshotListQuerySchema },
      responses: { 200: json('Snapshots') },
    });
    registry.registerPath({
      method: 'get',
      path: '/api/clone-snapshots/{snapshotId}',
      tags: ['snapshots'],
      summary: 'One snapshot with its tables',
      request: { params: snapshotParamsSchema },
      responses: { 200: json('Snapshot'), 404: error('Unknown snapshot') },
    });
    registry.registerPath({
      method: 'delete',
      path: '/api/clone-snapshots/{snapshotId}',
      tags: ['snapshots'],
      summary: 'Delete a snapshot',
      request: { params: snapshotParamsSchema },
      responses: { 200: json('Deleted'), 404: error('Unknown snapshot') },
    });
  },
};
