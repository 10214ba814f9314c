import { InvalidInputError } from '../../../platform/errors';
import type { CloneOptions } from '../../../schemas/clone';
import type { Db } from '../../../store/db';
import { snapshotVersionsFor } from './store';

const cache = new Map<string, Promise<Map<string, number | null>>>();

/**
 * The options for cloning one table of a `source_snapshot_id` clone: the table's captured version as
 * as_of_version (an explicit as_of_version / as_of_timestamp wins). A table the snapshot did not capture
 * cannot be cloned "as of the snapshot" and fails with a message saying so.
 */
export async function snapshotOptions(db: Db, o: CloneOptions, schema: string, table: string): Promise<CloneOptions> {
  if (!o.source_snapshot_id || o.as_of_version !== undefined || o.as_of_timestamp !== undefined) return o;
  let versions = cache.get(o.source_snapshot_id);
  if (!versions) {
    versions = snapshotVersionsFor(db, o.source_snapshot_id);
    cache.set(o.source_snapshot_id, versions);
    versions.catch(() => cache.delete(o.source_snapshot_id!));
  }
  const v = (await versions).get(`${schema}.${table}`);
  if (v === undefined)
    throw new InvalidInputError(
      `${schema}.${table} is not in snapshot ${o.source_snapshot_id} (created after the capture)`,
    );
  if (v === null)
    throw new InvalidInputError(`${schema}.${table} has no Delta version in snapshot ${o.source_snapshot_id}`);
  return { ...o, as_of_version: v };
}
