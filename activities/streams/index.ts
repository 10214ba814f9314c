import { log } from '@temporalio/activity';
import type { Workspace } from '../../platform/port';
import type { Db } from '../../store/db';
import { getStream, recordApplied, recordCycle, updateStream } from '../../store/streams/repo';
import type { WorkspaceRef } from '../../workflows/clone/definitions';
import type { CycleResult, StreamInput } from '../../workflows/streams/definitions';
import { stopOnCancel, withHeartbeat } from '../clone/heartbeat';
import { rootCauseMessage } from '../jobs/logic/root-cause';
import { splitTable } from './logic/stream-plan';

export interface StreamActivityDeps {
  db: Db;
  /** The clone engine's resolver (local roots, saved targets, the configured workspace). */
  resolveWorkspace(ref: WorkspaceRef): Promise<Workspace>;
}

export function createStreamActivities(deps: StreamActivityDeps) {
  return {
    /**
     * One trigger cycle of a stream. Per table: the source's current version; a table never applied is first
     * copied (DEEP CLONE of the source at that version, replacing the destination); otherwise the change data
     * feed from the applied version + 1 up to it is applied as ONE MERGE by the table's keys. Each table's applied
     * version is recorded as soon as its write committed. Re-applying a range after a crash or retry is harmless
     * (the MERGE replaces or deletes by key), so nothing is lost or duplicated. The applied versions come from the
     * store, the one record every run of the stream shares.
     */
    async runStreamCycle(input: StreamInput): Promise<CycleResult> {
      return withHeartbeat(async () => {
        const ws = stopOnCancel(await deps.resolveWorkspace(input.workspace));
        const row = await getStream(deps.db, input.streamId);
        const applied = { ...(row?.applied ?? {}) };
        const sourceVersions: Record<string, number> = {};
        const rows = { inserted: 0, updated: 0, deleted: 0 };
        const errors: string[] = [];
        for (const t of input.tables) {
          const { schema, name } = splitTable(t);
          const src = { catalog: input.sourceCatalog, schema, name };
          const dst = { catalog: input.destinationCatalog, schema, name };
          try {
            const version = (await ws.describeTable(src)).version;
            if (version === null) throw new Error(`${t} is not a Delta table`);
            sourceVersions[t] = version;
            const done = applied[t];
            if (done === undefined) {
              await ws.createCatalog({ name: input.destinationCatalog, ifNotExists: true });
              await ws.createSchema({ catalog: input.destinationCatalog, name: schema, ifNotExists: true });
              await ws.cloneTable({ source: src, target: dst, cloneType: 'DEEP', version, replace: true });
            } else if (version > done) {
              const changes = await ws.tableChanges(src, done + 1, version);
              const m = await ws.mergeChanges(dst, changes, { keys: input.keys[t] });
              rows.inserted += m.numInsertedRows;
              rows.updated += m.numUpdatedRows;
              rows.deleted += m.numDeletedRows;
            } else continue;
            await recordApplied(deps.db, input.streamId, t, version);
            applied[t] = version;
          } catch (err) {
            const message = `${t}: ${rootCauseMessage(err)}`;
            errors.push(message);
            log.warn('stream table failed', { stream_id: input.streamId, table: t, error: message });
          }
        }
        await recordCycle(deps.db, input.streamId, {
          sourceVersions,
          error: errors.length ? errors.join('; ') : null,
          at: new Date(),
        });
        return { applied, sourceVersions, rows, errors };
      });
    },

    /** Records the stream's run id (each new run: first start, restart, continue-as-new keeps the chain's). */
    async markStreamRun(streamId: string, runId: string): Promise<void> {
      await updateStream(deps.db, streamId, { runId });
    },

    /** The stream's run ended: stopped (cancelled) or failed. */
    async markStreamEnded(streamId: string, status: 'stopped' | 'failed', error: string | null): Promise<void> {
      await updateStream(deps.db, streamId, { status, ...(error ? { error } : {}) });
    },
  };
}

export type StreamActivities = ReturnType<typeof createStreamActivities>;
