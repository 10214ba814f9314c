import type { Workspace } from '../../platform/port';
import type { TableRef } from '../../platform/types';
import type { SchemaPlan, TargetContext, Totals } from '../../workflows/clone/engine-types';
import { addObjects } from './logic/totals';
import { runHooks, workspacesFor, type CloneActivityDeps } from './deps';
import { emitEvents, warningEvents, type CloneEvent } from './events';
import { classified } from './failures';
import { copyFunctions } from './function-copy';
import { withHeartbeat } from './heartbeat';
import { copySecurable, Warnings } from './metadata-copy';
import { planSchemaTables, type PlanPage } from './schema-plan';
import { copyVolumes } from './volume-copy';
import { ViewCopier } from './view-copy';
import { schemaViewDependencies } from './view-dependency-scan';
import { dependencyWarnings, pulledTablesOf } from './logic/view-dependencies';

export interface SchemaStep {
  ctx: TargetContext;
  schema: string;
}

export interface ObjectStepResult {
  cloned: number;
  failed: number;
  skipped: number;
  bytesCopied: number;
  filesCopied: number;
  warnings: string[];
}

async function report(
  deps: CloneActivityDeps,
  step: SchemaStep,
  kind: string,
  r: ObjectStepResult,
  failures: string[],
): Promise<ObjectStepResult> {
  const where = { schema: step.schema, target: step.ctx.target.label, kind };
  const events: CloneEvent[] = [...warningEvents(r.warnings, where)];
  for (const f of failures)
    events.push({ event: 'warning', level: 'error', message: `${kind} ${f}`, data: { ...where, status: 'failed' } });
  await emitEvents(deps.db, step.ctx.jobId, events);
  return { ...r, warnings: [...r.warnings, ...failures.map((f) => `${kind} ${f}`)] };
}

export interface SchemaEnd {
  views?: ObjectStepResult;
  volumes?: ObjectStepResult;
  /** Warnings of the post-schema steps. */
  warnings: string[];
}

async function cloneFunctions(deps: CloneActivityDeps, step: SchemaStep, src: Workspace, dst: Workspace) {
  const r = await copyFunctions(src, dst, step.ctx, step.schema);
  const failures = r.failed.map((f) => `${f.fn} failed: ${f.error}`);
  const counts = { cloned: r.cloned, failed: r.failed.length, skipped: r.skipped, bytesCopied: 0, filesCopied: 0 };
  return report(deps, step, 'function', { ...counts, warnings: r.warnings }, failures);
}

async function cloneViews(deps: CloneActivityDeps, step: SchemaStep, src: Workspace, dst: Workspace) {
  // Tables pulled in from other schemas (include_dependencies) are recorded for rollback like any table.
  const beforeTouch = (ref: TableRef) => runHooks(deps, 'beforeTableTouched', { ctx: step.ctx, target: dst, ref });
  const r = await new ViewCopier(src, dst, step.ctx, beforeTouch).cloneSchema(step.schema);
  const failures = r.failed.map((f) => `${f.view} failed: ${f.error}`);
  const counts = {
    cloned: r.cloned,
    failed: r.failed.length,
    skipped: r.skipped,
    bytesCopied: r.bytesCopied,
    filesCopied: r.filesCopied,
  };
  return report(deps, step, 'view', { ...counts, warnings: r.warnings }, failures);
}

async function cloneVolumes(deps: CloneActivityDeps, step: SchemaStep, src: Workspace, dst: Workspace) {
  const r = await copyVolumes(src, dst, step.ctx, step.schema);
  const counts = { cloned: r.cloned, failed: 0, skipped: r.skipped, bytesCopied: r.bytesCopied };
  return report(deps, step, 'volume', { ...counts, filesCopied: r.filesCopied, warnings: r.warnings }, []);
}

/** A later page of a schema's plan: its tables and the skipped ones' events; the schema itself is prepared. */
async function planPage(
  deps: CloneActivityDeps,
  step: SchemaStep & { page: PlanPage },
  src: Workspace,
  dst: Workspace,
): Promise<SchemaPlan> {
  const { ctx, schema } = step;
  const pulled = pulledTablesOf(await schemaViewDependencies(src, ctx, schema), schema);
  const plan = await planSchemaTables(deps.db, src, dst, ctx, schema, undefined, pulled, step.page);
  const where = { schema, target: ctx.target.label };
  await emitEvents(
    deps.db,
    ctx.jobId,
    plan.skips.map((s) => ({
      event: 'table_finished' as const,
      message: `${schema}.${s.name}: skipped, ${s.reason}`,
      data: { ...where, table: s.name, status: 'skipped', reason: s.reason, bytes: 0, files: 0 },
    })),
  );
  return { tables: plan.tables, skipped: plan.skips.length, warnings: [], next: plan.next };
}

export function createSchemaActivities(deps: CloneActivityDeps) {
  return {
    /**
     * Creates the destination schema, copies its metadata, plans its tables and, with `functions`, copies
     * its functions (row filters and masks use them). One activity: each step is short, and one round trip
     * through the server costs more than the work on a small schema. With `page` it plans one page of the
     * schema's tables (a run of the schema workflow at a time: the plan of a 100,000-table schema does not fit
     * in one workflow payload); with `page.after` it only plans the page after that table.
     */
    async prepareSchema(
      step: SchemaStep & { functions?: boolean; page?: PlanPage },
    ): Promise<SchemaPlan & { functions?: ObjectStepResult }> {
      return classified(() =>
        withHeartbeat(async () => {
          const { ctx, schema } = step;
          const { src, dst } = await workspacesFor(deps, ctx);
          if (step.page?.after) return planPage(deps, step as SchemaStep & { page: PlanPage }, src, dst);
          const o = ctx.options;
          await dst.createSchema({ catalog: ctx.target.destinationCatalog, name: schema, ifNotExists: true });
          const w = new Warnings();
          await copySecurable(
            src,
            dst,
            { type: 'SCHEMA', catalog: o.source_catalog, schema },
            { type: 'SCHEMA', catalog: ctx.target.destinationCatalog, schema },
            o,
            w,
            `schema ${schema}`,
          );
          // Views reading what the filters leave out are known now: skipped (or their dependencies pulled in).
          const viewDeps = await schemaViewDependencies(src, ctx, schema);
          const pulled = pulledTablesOf(viewDeps, schema);
          const { tables, skips, listed, next } = await planSchemaTables(
            deps.db,
            src,
            dst,
            ctx,
            schema,
            undefined,
            pulled,
            step.page,
          );
          w.list.push(...dependencyWarnings(viewDeps, schema));
          const where = { schema, target: ctx.target.label };
          await emitEvents(deps.db, ctx.jobId, [
            ...warningEvents(w.list, where),
            ...skips.map((s) => ({
              event: 'table_finished' as const,
              message: `${schema}.${s.name}: skipped, ${s.reason}`,
              data: { ...where, table: s.name, status: 'skipped', reason: s.reason, bytes: 0, files: 0 },
            })),
            ...viewDeps.skipped.map((v) => ({
              event: 'table_finished' as const,
              message: `${schema}.${v.name}: skipped, ${v.cause}`,
              data: { ...where, table: v.name, kind: 'view', status: 'skipped', reason: v.cause, bytes: 0, files: 0 },
            })),
          ]);
          const functions = step.functions ? await cloneFunctions(deps, step, src, dst) : undefined;
          const skipped = skips.length + viewDeps.skipped.length;
          const paged = step.page ? { next, planned: (listed ?? 0) + viewDeps.skipped.length } : {};
          return { tables, skipped, warnings: w.list, ...paged, ...(functions ? { functions } : {}) };
        }),
      );
    },

    /**
     * The end of a schema in one activity: its views (with `views`) in dependency order, its volumes (with
     * `volumes`), then the post-schema steps (safety hooks) and the schema_finished event. `totals` are the
     * schema's counts so far; the returned view and volume results are added by the workflow.
     */
    async finishSchema(input: SchemaStep & { totals: Totals; views?: boolean; volumes?: boolean }): Promise<SchemaEnd> {
      return classified(() =>
        withHeartbeat(async () => {
          const { ctx, schema } = input;
          const { src, dst } = await workspacesFor(deps, ctx);
          const end: SchemaEnd = { warnings: [] };
          const totals: Totals = { ...input.totals, formats: { ...input.totals.formats }, warnings: [] };
          if (input.views) addObjects(totals, 'views', (end.views = await cloneViews(deps, input, src, dst)));
          if (input.volumes) addObjects(totals, 'volumes', (end.volumes = await cloneVolumes(deps, input, src, dst)));
          const warnings = (await runHooks(deps, 'afterSchema', { ctx, schema, source: src, target: dst })).flatMap(
            (x) => (Array.isArray(x) ? (x as string[]) : []),
          );
          const where = { schema, target: ctx.target.label };
          await emitEvents(deps.db, ctx.jobId, [
            ...warningEvents(warnings, where),
            {
              event: 'schema_finished',
              message: `schema ${schema}: ${totals.tables_cloned} cloned, ${totals.tables_failed} failed, ${totals.tables_skipped} skipped`,
              data: {
                ...where,
                tables_cloned: totals.tables_cloned,
                tables_failed: totals.tables_failed,
                tables_skipped: totals.tables_skipped,
                views_cloned: totals.views_cloned,
                functions_cloned: totals.functions_cloned,
                volumes_cloned: totals.volumes_cloned,
                bytes: totals.bytes_copied,
                files: totals.files_copied,
              },
            },
          ]);
          end.warnings = warnings;
          return end;
        }),
      );
    },
  };
}
