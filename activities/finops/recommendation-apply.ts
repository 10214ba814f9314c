import { InvalidInputError, NotFoundError } from '../../platform/errors';
import type { Workspace } from '../../platform/port';
import type { Db } from '../../store/db';
import type { RecommendationRow } from '../../store/finops/recommendations-repo';
import { getWarehouse, specOf, updateWarehouseSpec } from '../../store/warehouses/repo';
import type { WarehouseEdit } from '../../schemas/warehouses';
import { applyEdit } from '../warehouses/logic/spec';
import { applyPlan } from './logic/recommendation-state';

export interface ApplyOutcome {
  kind: 'warehouse_patch' | 'vacuum' | 'optimize' | 'drop';
  /** What ran: the warehouse request or the SQL statement (as the dry run printed it). */
  ran: string;
  /** The warehouse whose workflow must pick up the edit (warehouse_patch only). */
  warehouse_id?: string;
  detail: Record<string, unknown>;
}

/**
 * Runs one recommendation's action: a warehouse edit through the same validation as PATCH
 * /infrastructure/warehouses/{id} (the workflow then tells the warehouse's own workflow), or VACUUM, OPTIMIZE or
 * DROP TABLE on the workspace. Missing objects and refused edits are logical failures (no retry).
 */
export async function applyRecommendationAction(
  deps: { db: Db; ws: Workspace },
  row: RecommendationRow,
): Promise<ApplyOutcome> {
  const step = applyPlan(row);
  if (step.kind === 'warehouse_patch') {
    const w = await getWarehouse(deps.db, step.warehouse_id);
    if (!w || w.state === 'DELETED') throw new NotFoundError(`warehouse ${step.warehouse_id} no longer exists`);
    const { spec, problems } = applyEdit(specOf(w), step.patch as WarehouseEdit);
    if (problems.length)
      throw new InvalidInputError(problems.map((p) => `${p.path.replace(/^body\./, '')} ${p.message}`).join('; '));
    await updateWarehouseSpec(deps.db, w.id, spec);
    return { kind: step.kind, ran: step.request, warehouse_id: w.id, detail: { ...step.patch } };
  }
  if (step.kind === 'vacuum') {
    const v = await deps.ws.vacuumTable(step.table);
    return { kind: step.kind, ran: step.sql, detail: { files_removed: v.files.length, bytes_removed: v.bytes } };
  }
  if (step.kind === 'optimize') {
    const m = await deps.ws.optimizeTable(step.table);
    return {
      kind: step.kind,
      ran: step.sql,
      detail: { files_removed: m.numFilesRemoved, files_added: m.numFilesAdded },
    };
  }
  await deps.ws.dropTable(step.table);
  return { kind: step.kind, ran: step.sql, detail: {} };
}
