import type { Workspace } from '../../platform/port';
import type { SyncAction, SyncPlan } from '../../schemas/sync';
import { CloneWriter } from '../../store/clone/clone-writes';
import type { Db } from '../../store/db';
import { appendRunLog } from '../../store/jobs/run-logs';
import { recordedSourceVersions } from '../../store/sync/recorded';
import type { CloneTarget, WorkspaceRef } from '../../workflows/clone/definitions';
import { isLogicalError } from '../clone/failures';
import { stopOnCancel, withHeartbeat } from '../clone/heartbeat';
import { workspaceKey } from '../clone/logic/workspace-key';
import { rootCauseMessage } from '../jobs/logic/root-cause';
import { countActions, planCatalogSync, tableActions } from './logic/catalog-plan';
import { checkSchema } from './logic/check';
import type { SchemaCheck } from './logic/classify';

export interface SyncActivityDeps {
  db: Db;
  /** The clone engine's resolver (saved targets, the configured workspace), cached per reference. */
  resolveWorkspace(ref: WorkspaceRef): Promise<Workspace>;
}

/** Where a sync job reads from and writes to (the clone input's source and first target). */
export interface SyncSides {
  jobId: string;
  source: WorkspaceRef;
  target: CloneTarget;
  sourceCatalog: string;
}

/** A table whose source change feed is applied as a MERGE. */
export interface MergeTask {
  schema: string;
  table: string;
  keys: string[];
  /** Source version recorded at the last clone; the feed is read from the next one. */
  fromVersion: number;
  toVersion: number;
}

export interface PlannedSync {
  plan: SyncPlan;
  merges: MergeTask[];
}

export type MergeOutcome =
  | { ok: true; schema: string; table: string; inserted: number; updated: number; deleted: number; change_rows: number }
  | { ok: false; schema: string; table: string; error: string };

function mergesOf(checks: SchemaCheck[]): MergeTask[] {
  return checks.flatMap((c) =>
    c.tables
      .filter((t) => t.needs_sync && t.path === 'merge')
      .map((t) => ({
        schema: c.schema,
        table: t.table,
        keys: t.merge_keys!,
        fromVersion: t.recorded_version!,
        toVersion: t.current_version!,
      })),
  );
}

const fqn = (a: { schema: string; name: string | null }) => (a.name ? `${a.schema}.${a.name}` : a.schema);

/** One run-log line per planned action (the job's log says what will happen to each object, and how). */
function planLines(plan: SyncPlan, dryRun: boolean) {
  const head = dryRun ? 'dry run: would ' : '';
  return plan.actions.map((a) => ({
    level: 'info',
    message: `${head}${a.action.replace('_', ' ')} ${fqn(a)}${a.path ? ` by ${a.path === 'merge' ? 'MERGE' : 'copy'}` : ''} (${a.detail})`,
    data: { event: 'log', action: a.action, kind: a.kind, schema: a.schema, name: a.name, path: a.path },
  }));
}

export function createSyncActivities(deps: SyncActivityDeps) {
  const sides = async (s: SyncSides) => {
    const [src, dst] = await Promise.all([deps.resolveWorkspace(s.source), deps.resolveWorkspace(s.target.workspace)]);
    return { src: stopOnCancel(src), dst: stopOnCancel(dst) };
  };
  const recorded = (s: SyncSides, schema: string) =>
    recordedSourceVersions(deps.db, {
      destWorkspace: workspaceKey(s.target.workspace),
      destCatalog: s.target.destinationCatalog,
      schemaName: schema,
      sourceWorkspace: workspaceKey(s.source),
      sourceCatalog: s.sourceCatalog,
    });

  return {
    /** The incremental check of one schema as a plan: new and changed tables, each by MERGE or copy. */
    async planIncrementalSync(s: SyncSides & { schema: string; dryRun: boolean }): Promise<PlannedSync> {
      return withHeartbeat(async () => {
        const { src, dst } = await sides(s);
        const check = await checkSchema(src, dst, {
          sourceCatalog: s.sourceCatalog,
          destinationCatalog: s.target.destinationCatalog,
          schema: s.schema,
          recorded: await recorded(s, s.schema),
        });
        const actions = tableActions(check);
        const plan: SyncPlan = {
          source_catalog: s.sourceCatalog,
          destination_catalog: s.target.destinationCatalog,
          drop_extra: false,
          schemas: [s.schema],
          actions,
          counts: countActions(actions),
        };
        await appendRunLog(deps.db, s.jobId, [
          {
            level: 'info',
            message: `${s.schema}: ${check.tables_needing_sync} of ${check.tables.length} tables need syncing`,
            data: { event: 'log', check },
          },
          ...planLines(plan, s.dryRun),
        ]);
        return { plan, merges: mergesOf([check]) };
      });
    },

    /** The two-way sync plan of a catalog (see planCatalogSync). */
    async planCatalogSyncJob(
      s: SyncSides & { includeSchemas: string[] | null; excludeSchemas: string[]; dropExtra: boolean },
    ): Promise<PlannedSync> {
      return withHeartbeat(async () => {
        const { src, dst } = await sides(s);
        const { plan, checks } = await planCatalogSync(src, dst, {
          sourceCatalog: s.sourceCatalog,
          destinationCatalog: s.target.destinationCatalog,
          includeSchemas: s.includeSchemas,
          excludeSchemas: s.excludeSchemas,
          dropExtra: s.dropExtra,
          recorded: (schema) => recorded(s, schema),
        });
        await appendRunLog(deps.db, s.jobId, [
          {
            level: 'info',
            message: `sync plan: ${plan.actions.length} actions over ${plan.schemas.length} schemas`,
            data: { event: 'log', counts: plan.counts },
          },
          ...planLines(plan, false),
        ]);
        return { plan, merges: mergesOf(checks) };
      });
    },

    /**
     * Applies a table's source change feed (recorded version + 1 … current) to the destination as one MERGE,
     * then records the new source version as cloned (so the next check sees it in sync). Re-applying after a
     * retry is harmless: the net changes replace or delete rows by key. A logical failure is returned (the
     * workflow copies the table instead); transient ones are thrown to retry.
     */
    async mergeSyncTable(s: SyncSides & MergeTask): Promise<MergeOutcome> {
      return withHeartbeat(async () => {
        const { src, dst } = await sides(s);
        const from = { catalog: s.sourceCatalog, schema: s.schema, name: s.table };
        const to = { catalog: s.target.destinationCatalog, schema: s.schema, name: s.table };
        const started = Date.now();
        try {
          const changes = await src.tableChanges(from, s.fromVersion + 1, s.toVersion);
          const m = await dst.mergeChanges(to, changes, { keys: s.keys });
          const change_rows = changes.filter((c) => c._change_type !== 'update_preimage').length;
          const message =
            `${s.schema}.${s.table}: MERGE of ${change_rows} change rows by ${s.keys.join(', ')} ` +
            `(${m.numInsertedRows} inserted, ${m.numUpdatedRows} updated, ${m.numDeletedRows} deleted), ` +
            `source version ${s.fromVersion} → ${s.toVersion}`;
          await new CloneWriter(deps.db).write({
            jobTables: [
              {
                jobId: s.jobId,
                target: s.target.label,
                schemaName: s.schema,
                tableName: s.table,
                status: 'cloned',
                format: 'DELTA',
                bytesCopied: 0,
                filesCopied: 0,
                sourceVersion: s.toVersion,
                attempts: 1,
                error: null,
                result: { path: 'merge', change_rows, ...m, duration_ms: Date.now() - started },
              },
            ],
            tableStates: [
              {
                destWorkspace: workspaceKey(s.target.workspace),
                destCatalog: s.target.destinationCatalog,
                schemaName: s.schema,
                tableName: s.table,
                sourceWorkspace: workspaceKey(s.source),
                sourceCatalog: s.sourceCatalog,
                sourceVersion: s.toVersion,
                jobId: s.jobId,
              },
            ],
            logs: [
              {
                jobId: s.jobId,
                lines: [
                  {
                    level: 'info',
                    message,
                    data: {
                      event: 'table_finished',
                      schema: s.schema,
                      table: s.table,
                      status: 'cloned',
                      path: 'merge',
                      change_rows,
                      inserted: m.numInsertedRows,
                      updated: m.numUpdatedRows,
                      deleted: m.numDeletedRows,
                    },
                  },
                ],
              },
            ],
          });
          return {
            ok: true,
            schema: s.schema,
            table: s.table,
            inserted: m.numInsertedRows,
            updated: m.numUpdatedRows,
            deleted: m.numDeletedRows,
            change_rows,
          };
        } catch (err) {
          if (!isLogicalError(err)) throw err;
          const error = rootCauseMessage(err);
          await appendRunLog(deps.db, s.jobId, [
            {
              level: 'warn',
              message: `${s.schema}.${s.table}: MERGE not possible (${error}); copying the table instead`,
              data: { event: 'warning', schema: s.schema, table: s.table, path: 'copy' },
            },
          ]);
          return { ok: false, schema: s.schema, table: s.table, error };
        }
      });
    },

    /** Logs the tables going by full copy (the clone engine's own events follow). */
    async announceCopies(s: SyncSides & { tables: { schema: string; table: string; reason: string }[] }) {
      await appendRunLog(
        deps.db,
        s.jobId,
        s.tables.map((t) => ({
          level: 'info',
          message: `${t.schema}.${t.table}: full copy (${t.reason})`,
          data: { event: 'log', schema: t.schema, table: t.table, path: 'copy' },
        })),
      );
    },

    /** Creates the destination catalog and the schemas it lacks, before the clone engine copies into them. */
    async createSyncSchemas(s: SyncSides & { schemas: string[] }): Promise<void> {
      const { dst } = await sides(s);
      await dst.createCatalog({ name: s.target.destinationCatalog, ifNotExists: true });
      for (const name of s.schemas)
        await dst.createSchema({ catalog: s.target.destinationCatalog, name, ifNotExists: true });
    },

    /** Drops what only the destination has (drop_extra): objects first, then schemas (CASCADE). */
    async dropSyncExtras(s: SyncSides & { actions: SyncAction[] }): Promise<string[]> {
      return withHeartbeat(async () => {
        const { dst } = await sides(s);
        const done: string[] = [];
        const order = ['drop_view', 'drop_function', 'drop_table', 'drop_volume', 'drop_schema'];
        const actions = [...s.actions].sort((a, b) => order.indexOf(a.action) - order.indexOf(b.action));
        for (const a of actions) {
          const ref = { catalog: s.target.destinationCatalog, schema: a.schema, name: a.name ?? '' };
          if (a.action === 'drop_view') await dst.dropView(ref, { ifExists: true });
          else if (a.action === 'drop_function') await dst.dropFunction(ref, { ifExists: true });
          else if (a.action === 'drop_table') await dst.dropTable(ref, { ifExists: true });
          else if (a.action === 'drop_volume') await dst.dropVolume(ref, { ifExists: true });
          else if (a.action === 'drop_schema')
            await dst.dropSchema(s.target.destinationCatalog, a.schema, { cascade: true, ifExists: true });
          else continue;
          done.push(`${a.kind} ${fqn(a)}`);
        }
        if (done.length > 0)
          await appendRunLog(
            deps.db,
            s.jobId,
            done.map((d) => ({
              level: 'info',
              message: `dropped ${d} (only in the destination)`,
              data: { event: 'log' },
            })),
          );
        return done;
      });
    },
  };
}

export type SyncActivities = ReturnType<typeof createSyncActivities>;
