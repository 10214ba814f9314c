import { z } from 'zod';
import { snapshotView } from '../../activities/clone/logic/snapshot-view';
import { captureSnapshot } from './snapshot-capture';
import { snapshotCreateSchema, snapshotListQuerySchema, snapshotParamsSchema } from '../../schemas/clone-safety';
import { deleteSourceSnapshot, getSourceSnapshot, listSourceSnapshots } from '../../store/clone/source-snapshots';
import { notFound } from '../middleware/http-error';
import { defineRoutes, route } from '../middleware/route';

const view = z.record(z.string(), z.unknown());
const byId = { params: snapshotParamsSchema };

/** Source snapshots: capture a catalog's table versions, list, read, delete. A clone uses one via source_snapshot_id. */
export const snapshotRoutes = defineRoutes({
  name: 'snapshots',
  routes: [
    route({
      method: 'post',
      path: '/clone-snapshots',
      summary: 'Capture every table version of a catalog',
      request: { body: snapshotCreateSchema },
      response: { status: 201, description: 'Snapshot', schema: view },
      errors: { 404: 'Unknown catalog' },
      handler: async ({ deps, req, input }) => {
        const ws = await deps.workspaces.resolve(req);
        return snapshotView(await captureSnapshot(deps.store.db, ws, input.body));
      },
    }),
    route({
      method: 'get',
      path: '/clone-snapshots',
      summary: 'Snapshots, newest first',
      request: { query: snapshotListQuerySchema },
      response: { description: 'Snapshots', schema: z.object({ snapshots: z.array(view) }) },
      handler: async ({ deps, input: { query: q } }) => {
        const rows = await listSourceSnapshots(deps.store.db, {
          sourceCatalog: q.source_catalog,
          limit: q.limit,
          offset: q.offset,
        });
        return { snapshots: rows.map((r) => snapshotView(r, false)) };
      },
    }),
    route({
      method: 'get',
      path: '/clone-snapshots/:snapshotId',
      summary: 'One snapshot with its tables',
      request: byId,
      response: { description: 'Snapshot', schema: view },
      errors: { 404: 'Unknown snapshot' },
      handler: async ({ deps, input }) => {
        const { snapshotId } = input.params;
        const row = await getSourceSnapshot(deps.store.db, snapshotId);
        if (!row) throw notFound(`snapshot ${snapshotId} not found`);
        return snapshotView(row);
      },
    }),
    route({
      method: 'delete',
      path: '/clone-snapshots/:snapshotId',
      summary: 'Delete a snapshot',
      request: byId,
      response: {
        description: 'Deleted',
        schema: z.object({ snapshot_id: z.string(), status: z.literal('deleted') }),
      },
      errors: { 404: 'Unknown snapshot' },
      handler: async ({ deps, input }) => {
        const { snapshotId } = input.params;
        if (!(await deleteSourceSnapshot(deps.store.db, snapshotId)))
          throw notFound(`snapshot ${snapshotId} not found`);
        return { snapshot_id: snapshotId, status: 'deleted' as const };
      },
    }),
  ],
});
