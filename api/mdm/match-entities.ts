import { matchTables, tableOf, lit } from '../../activities/mdm/logic/match-sql';
import { EntityIdParamsSchema, GoldenRecordSchema } from '../../schemas/mdm-runs';
import { EntityPatchSchema, GOLDEN_TRANSITIONS } from '../../schemas/mdm-rules';
import { listModels, recordMdmAudit } from '../../store/mdm/repo';
import { HttpError, notFound } from '../middleware/http-error';
import { route } from '../middleware/route';
import { goldenRecordById } from './match-routes';
import { actorOf, mdmWorkspace, modelOf } from './service';

/**
 * A steward's status moves of a golden record: active ↔ under_review, and either to archived (which the next
 * runs keep while the record's id lives). merged_into_other and archived records do not move; the same status
 * again is no move either: 409.
 */
export const entityRoutes = [
  route({
    method: 'patch',
    path: '/mdm/entities/:entity_id',
    summary: 'Move a golden record: active ↔ under_review, active or under_review → archived (others: 409)',
    role: 'steward',
    request: { params: EntityIdParamsSchema, body: EntityPatchSchema },
    response: { description: 'The golden record', schema: GoldenRecordSchema },
    errors: { 404: 'No such golden record', 409: 'The move is not one of the allowed transitions' },
    handler: async ({ deps, input: { params, body } }) => {
      const ws = await mdmWorkspace(deps);
      for (const model of (await listModels(deps.store.db)).map(modelOf)) {
        const t = matchTables(deps.config.mdm.catalog, model.entity_type);
        if (!(await ws.tableExists(t.golden))) continue;
        const [row] = (
          await ws.query(`SELECT status FROM ${tableOf(t.golden)} WHERE entity_id = ${lit(params.entity_id)}`)
        ).rows;
        if (!row) continue;
        const from = String(row.status);
        if (!(GOLDEN_TRANSITIONS[from] ?? []).includes(body.status))
          throw new HttpError(409, 'INVALID_TRANSITION', `A golden record cannot move from ${from} to ${body.status}`, [
            {
              path: 'body.status',
              message: `from ${from} the moves are: ${(GOLDEN_TRANSITIONS[from] ?? []).join(', ') || 'none'}`,
            },
          ]);
        await ws.updateWhere(
          t.golden,
          {
            status: lit(body.status),
            reviewable: body.status === 'under_review' ? 'TRUE' : 'FALSE',
            updated_at: `CAST(${lit(new Date().toISOString())} AS TIMESTAMP)`,
          },
          `entity_id = ${lit(params.entity_id)} AND status = ${lit(from)}`,
        );
        await recordMdmAudit(deps.store.db, {
          actor: actorOf(deps),
          action: 'golden_status',
          objectType: 'golden_record',
          objectId: params.entity_id,
          details: { from, to: body.status },
        });
        return (await goldenRecordById(deps, params.entity_id))!;
      }
      throw notFound(`No golden record ${params.entity_id}`);
    },
  }),
];
