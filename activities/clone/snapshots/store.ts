import { InvalidInputError } from '../../../platform/errors';
import type { Db } from '../../../store/db';
import { getSourceSnapshot } from '../../../store/clone/source-snapshots';

/** `schema.table` → captured version, for a clone with source_snapshot_id. Unknown id → typed error. */
export async function snapshotVersionsFor(db: Db, snapshotId: string): Promise<Map<string, number | null>> {
  const snap = await getSourceSnapshot(db, snapshotId);
  if (!snap) throw new InvalidInputError(`source_snapshot_id: snapshot ${snapshotId} not found`);
  return new Map(snap.tables.map((t) => [`${t.schema}.${t.table}`, t.version]));
}
