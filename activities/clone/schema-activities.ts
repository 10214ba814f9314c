import type { SchemaPlan, TargetContext, Totals } from '../../workflows/clone/engine-types';
import { runHooks, workspacesFor, type CloneActivityDeps } from './deps';
import { emitEvents, warningEvents, type CloneEvent } from './events';
import { classified } from './failures';
import { copyFunctions } from './function-copy';
import { withHeartbeat } from './heartbeat';
import { copySecurable, Warnings } from './metadata-copy';
import { planSchemaTables } from './schema-plan';
import { copyVolumes } from './volume-copy';
import { ViewCopier } from './view-copy';

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

export function createSchemaActivities(deps: CloneActivityDeps) {
  return {
    /** Creates the destination schema, copies its metadata and plans its tables. */
    async prepareSchema(step: SchemaStep): Promise<SchemaPlan> {
      return classified(() =>
        withHeartbeat(async () => {
          const { ctx, schema } = step;
          const { src, dst } = await workspacesFor(deps, ctx);
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
          const { tables, skips } = await planSchemaTables(deps.db, src, dst, ctx, schema);
          const where = { schema, target: ctx.target.label };
          await emitEvents(deps.db, ctx.jobId, [
            ...warningEvents(w.list, where),
            ...skips.map((s) => ({
              event: 'table_finished' as const,
              message: `${schema}.${s.name}: skipped, ${s.reason}`,
              data: { ...where, table: s.name, status: 'skipped', reason: s.reason, bytes: 0, files: 0 },
            })),
          ]);
          return { tables, skipped: skips.length, warnings: w.list };
        }),
      );
    },

    async cloneFunctions(step: SchemaStep): Promise<ObjectStepResult> {
      return classified(() =>
        withHeartbeat(async () => {
          const { src, dst } = await workspacesFor(deps, step.ctx);
          const r = await copyFunctions(src, dst, step.ctx, step.schema);
          const failures = r.failed.map((f) => `${f.fn} failed: ${f.error}`);
          return report(
            deps,
            step,
            'function',
            {
              cloned: r.cloned,
              failed: r.failed.length,
              skipped: r.skipped,
              bytesCopied: 0,
              filesCopied: 0,
              warnings: r.warnings,
            },
            failures,
          );
        }),
      );
    },

    async cloneViews(step: SchemaStep): Promise<ObjectStepResult> {
      return classified(() =>
        withHeartbeat(async () => {
          const { src, dst } = await workspacesFor(deps, step.ctx);
          const r = await new ViewCopier(src, dst, step.ctx).cloneSchema(step.schema);
          const failures = r.failed.map((f) => `${f.view} failed: ${f.error}`);
          return report(
            deps,
            step,
            'view',
            {
              cloned: r.cloned,
              failed: r.failed.length,
              skipped: r.skipped,
              bytesCopied: 0,
              filesCopied: 0,
              warnings: r.warnings,
            },
            failures,
          );
        }),
      );
    },

    async cloneVolumes(step: SchemaStep): Promise<ObjectStepResult> {
      return classified(() =>
        withHeartbeat(async () => {
          const { src, dst } = await workspacesFor(deps, step.ctx);
          const r = await copyVolumes(src, dst, step.ctx, step.schema);
          return report(
            deps,
            step,
            'volume',
            {
              cloned: r.cloned,
              failed: 0,
              skipped: r.skipped,
              bytesCopied: r.bytesCopied,
              filesCopied: r.filesCopied,
              warnings: r.warnings,
            },
            [],
          );
        }),
      );
    },

    /** Post-schema steps (safety hooks) and the schema_finished event. */
    async finishSchema(input: SchemaStep & { totals: Totals }): Promise<string[]> {
      return classified(() =>
        withHeartbeat(async () => {
          const { ctx, schema, totals } = input;
          const { src, dst } = await workspacesFor(deps, ctx);
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
          return warnings;
        }),
      );
    },
  };
}
