import type { WorkspaceResolver } from '../../platform/workspace-resolver';
import type { Workspace } from '../../platform/port';
import type { MaintenanceOperation, MaintenanceTableResult } from '../../schemas/storage';
import { isLogicalError } from '../clone/failures';
import { stopOnCancel, withHeartbeat } from '../clone/heartbeat';
import { rootCauseMessage } from '../jobs/logic/root-cause';

export interface MaintainTableRequest {
  jobId: string;
  operation: MaintenanceOperation;
  catalog: string;
  schema: string;
  table: string;
  retentionHours: number | null;
  dryRun: boolean;
}

/** Files listed per table result (a VACUUM of a large table can name many thousands). */
export const MAX_LISTED_FILES = 1000;

/**
 * One table's OPTIMIZE or VACUUM on the configured workspace. OPTIMIZE on a dry run does nothing (the
 * platforms have no dry run for it) and says so; VACUUM's dry run lists what it would delete. A logical failure
 * (missing table, not a Delta table) is returned as a failed result; a transient one is thrown to retry.
 */
export async function maintainTable(ws: Workspace, req: MaintainTableRequest): Promise<MaintenanceTableResult> {
  const ref = { catalog: req.catalog, schema: req.schema, name: req.table };
  const base = { schema: req.schema, table: req.table, error: null, files: [] as string[] };
  const zero = { files_removed: 0, files_added: 0, bytes_removed: 0, bytes_added: 0 };
  try {
    if (req.operation === 'optimize') {
      if (req.dryRun) {
        await ws.describeTable(ref); // a dry run still reports a missing table
        return { ...base, ...zero, status: 'dry_run' };
      }
      const m = await ws.optimizeTable(ref);
      return {
        ...base,
        status: 'succeeded',
        files_removed: m.numFilesRemoved,
        files_added: m.numFilesAdded,
        bytes_removed: m.bytesRemoved,
        bytes_added: m.bytesAdded,
      };
    }
    const v = await ws.vacuumTable(ref, { retentionHours: req.retentionHours ?? undefined, dryRun: req.dryRun });
    return {
      ...base,
      ...zero,
      status: req.dryRun ? 'dry_run' : 'succeeded',
      files_removed: v.files.length,
      bytes_removed: v.bytes,
      files: v.files.slice(0, MAX_LISTED_FILES),
    };
  } catch (err) {
    if (!isLogicalError(err)) throw err;
    return { ...base, ...zero, status: 'failed', error: rootCauseMessage(err) };
  }
}

/** Storage activities: OPTIMIZE / VACUUM of one table, heartbeating, stopping at the next statement once cancelled. */
export function createStorageActivities(deps: { workspaces: WorkspaceResolver }) {
  return {
    async storageMaintainTable(req: MaintainTableRequest): Promise<MaintenanceTableResult> {
      return withHeartbeat(async () => maintainTable(stopOnCancel(await deps.workspaces.default()), req));
    },
  };
}

export type StorageActivities = ReturnType<typeof createStorageActivities>;
