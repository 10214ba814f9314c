import { activityInfo } from '@temporalio/activity';
import type { CloneEventType, CloneSummary } from '../../workflows/clone/definitions';
import type { TargetContext, TargetPlan } from '../../workflows/clone/engine-types';
import { runHooks, workspacesFor, type CloneActivityDeps } from './deps';
import { catalogExists, dryRunPlan, sourceSchemaNames } from './dry-run';
import { emitEvents, warningEvents } from './events';
import { classified } from './failures';
import { withHeartbeat } from './heartbeat';
import { copySecurable, Warnings } from './metadata-copy';
import { chooseSchemas, nameSelected, selectionFor } from './selection';
import { setJobProgress } from '../../store/jobs/jobs';
import type { Workspace } from '../../platform/port';

export interface JobEvent {
  jobId: string;
  event: CloneEventType;
  message: string;
  level?: 'info' | 'warn' | 'error';
  data?: Record<string, unknown>;
}

async function selectedSchemas(ctx: TargetContext, src: Parameters<typeof sourceSchemaNames>[0]) {
  const choice = chooseSchemas(await sourceSchemaNames(src, ctx.options.source_catalog), selectionFor(ctx.options));
  const warnings = choice.missing.map((s) => `include_schemas: schema ${s} not found in ${ctx.options.source_catalog}`);
  return { schemas: choice.schemas, warnings };
}

async function emitJobEvent(deps: CloneActivityDeps, e: JobEvent): Promise<void> {
  await emitEvents(deps.db, e.jobId, [{ event: e.event, message: e.message, level: e.level, data: e.data }]);
}

/** The tables the job will touch (copy or skip) in these schemas: listed, filtered by type and name rules. */
async function countPlannedTables(src: Workspace, ctx: TargetContext, schemas: string[]): Promise<number> {
  const sel = selectionFor(ctx.options);
  let n = 0;
  for (const schema of schemas) {
    const tables = await src.listTables(ctx.options.source_catalog, schema);
    n += tables.filter(
      (t) => (t.tableType === 'MANAGED' || t.tableType === 'EXTERNAL') && nameSelected(t.name, sel),
    ).length;
  }
  return n;
}

export function createTargetActivities(deps: CloneActivityDeps) {
  return {
    /**
     * Checks the source, creates the destination catalog (with its metadata) and lists the schemas to clone.
     * `jobEvent` (the job's "running" status) is written first: one activity instead of two in a row.
     */
    async prepareTarget(ctx: TargetContext, jobEvent?: JobEvent): Promise<TargetPlan> {
      return classified(() =>
        withHeartbeat(async () => {
          if (jobEvent && activityInfo().attempt === 1) await emitJobEvent(deps, jobEvent);
          const { src, dst } = await workspacesFor(deps, ctx);
          await runHooks(deps, 'beforeTarget', { ctx, source: src });
          const { schemas, warnings } = await selectedSchemas(ctx, src);
          const o = ctx.options;
          const D = ctx.target.destinationCatalog;
          if (!(await catalogExists(dst, D)))
            await dst.createCatalog({ name: D, managedLocation: o.location, ifNotExists: true });
          const w = new Warnings();
          w.list.push(...warnings);
          await copySecurable(
            src,
            dst,
            { type: 'CATALOG', catalog: o.source_catalog },
            { type: 'CATALOG', catalog: D },
            o,
            w,
            `catalog ${D}`,
          );
          await emitEvents(deps.db, ctx.jobId, [
            ...warningEvents(w.list, { target: ctx.target.label }),
            {
              event: 'status',
              message: `target ${ctx.target.label}: ${schemas.length} schema(s) to clone into ${D}`,
              data: { status: 'running', target: ctx.target.label, schemas: schemas.length },
            },
          ]);
          const plannedTables = await countPlannedTables(src, ctx, schemas);
          // Totals known before the first copy: the job record, the WebSocket and the CLI's bar show them at once.
          await setJobProgress(deps.db, ctx.jobId, {
            [`planned:${ctx.target.label}`]: { schemas: schemas.length, tables: plannedTables },
          });
          return { schemas, warnings: w.list, plannedTables };
        }),
      );
    },

    /** The dry-run plan of one target; reads only. */
    async planDryRun(ctx: TargetContext): Promise<{ plan: string[]; warnings: string[] }> {
      return classified(() =>
        withHeartbeat(async () => {
          const { src, dst } = await workspacesFor(deps, ctx);
          const { schemas, warnings } = await selectedSchemas(ctx, src);
          return { plan: await dryRunPlan(deps.db, src, dst, ctx, schemas), warnings };
        }),
      );
    },

    /** status / error events of the job workflow. */
    async emitJobEvent(e: JobEvent): Promise<void> {
      await emitJobEvent(deps, e);
    },

    /** Post-job steps (safety hooks) and the completed event; returns fields the hooks add to the summary. */
    async finishJob(summary: CloneSummary): Promise<Record<string, unknown>> {
      return classified(async () => {
        const extra: Record<string, unknown> = {};
        for (const r of await runHooks(deps, 'afterJob', { jobId: summary.jobId, summary }))
          if (r && typeof r === 'object') Object.assign(extra, r);
        const s = { ...summary, ...extra };
        await emitEvents(deps.db, summary.jobId, [
          {
            event: 'completed',
            level: s.status === 'completed' ? 'info' : 'error',
            message: `job ${s.status}: ${s.tables_cloned} cloned, ${s.tables_failed} failed, ${s.tables_skipped} skipped${s.error ? ` (${s.error})` : ''}`,
            data: { status: s.status, summary: { ...s, plan: undefined } },
          },
        ]);
        return extra;
      });
    },
  };
}
