import { heartbeat } from '@temporalio/activity';
import { clonedTables } from '../../../store/clone/clone-checks';
import type { TargetContext } from '../../../workflows/clone/engine-types';
import { recordBeforeChange, type SafetyDeps } from '../rollback/activities';
import { isTransientFailure } from '../logic/failures';
import { maskFunctionFor } from './functions';
import { detectPii, type MaskStrategy } from './pii';

export interface MaskedColumn {
  table: string;
  column: string;
  pii_type: string;
  strategy: MaskStrategy;
  function: string;
}

export interface MaskingReport {
  masked: MaskedColumn[];
  /** Columns that could not be masked with the chosen strategy, with why. */
  errors: { table: string; column: string; error: string }[];
}

/**
 * Masks PII on the destination after the clone: columns whose SOURCE tags mark them as PII (and columns a
 * pii_mask_rules entry names, with that rule's strategy) get a column mask whose function implements the chosen strategy. Functions and masks are recorded for rollback before
 * they are created. Idempotent: functions are CREATE OR REPLACE and a mask replaces any earlier one.
 */
export async function maskPiiColumns(deps: SafetyDeps, ctx: TargetContext): Promise<MaskingReport> {
  const o = ctx.options;
  const report: MaskingReport = { masked: [], errors: [] };
  if (!o.auto_mask_pii || o.dry_run) return report;
  const [src, dst] = await Promise.all([
    deps.resolveWorkspace(ctx.source),
    deps.resolveWorkspace(ctx.target.workspace),
  ]);
  const dest = ctx.target.destinationCatalog;
  for (const t of await clonedTables(deps.db, ctx.jobId, ctx.target.label)) {
    heartbeat();
    const from = { catalog: o.source_catalog, schema: t.schemaName, name: t.tableName };
    const to = { catalog: dest, schema: t.schemaName, name: t.tableName };
    // Rules (pii_mask_rules) can name untagged columns, so with rules the destination's columns are listed first.
    const rules = o.pii_mask_rules ?? [];
    let columns = rules.length ? (await dst.describeTable(to)).columns : null;
    const names = columns?.map((c) => c.name) ?? [];
    const pii = detectPii(await src.getColumnTags(from), o.pii_mask_strategy ?? null, rules, names);
    if (pii.length === 0) continue;
    columns ??= (await dst.describeTable(to)).columns;
    const types = new Map(columns.map((c) => [c.name, c.type]));
    for (const p of pii) {
      const label = `${t.schemaName}.${t.tableName}`;
      try {
        const fn = maskFunctionFor(p.strategy, types.get(p.column) ?? 'string', `${label}.${p.column}`);
        const fnRef = { catalog: dest, schema: t.schemaName, name: fn.name };
        if (o.enable_rollback) {
          await recordBeforeChange(deps, {
            jobId: ctx.jobId,
            sourceCatalog: o.source_catalog,
            target: ctx.target,
            objects: [
              { type: 'function', fqn: `${dest}.${t.schemaName}.${fn.name}` },
              { type: 'column_mask', fqn: `${dest}.${label}.${p.column}` },
            ],
          });
        }
        await dst.createFunction({
          ref: fnRef,
          parameters: fn.parameters,
          returnType: fn.returnType,
          body: fn.body,
          comment: `Lakeward PII mask (${p.strategy})`,
          replace: true,
        });
        await dst.setColumnMask(to, {
          column: p.column,
          functionName: `${dest}.${t.schemaName}.${fn.name}`,
          usingColumns: [],
        });
        report.masked.push({
          table: label,
          column: p.column,
          pii_type: p.pii_type,
          strategy: p.strategy,
          function: fn.name,
        });
      } catch (err) {
        if (isTransientFailure(err)) throw err;
        report.errors.push({ table: label, column: p.column, error: (err as Error).message });
      }
    }
  }
  return report;
}
