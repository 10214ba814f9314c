import { safetyLog } from './log';
import { heartbeat } from '@temporalio/activity';
import type { TimeTravel } from '../../../platform/types';
import { cloneChecksFor, clonedTables, putCloneCheck } from '../../../store/clone/clone-checks';
import { findRollbackTarget } from '../../../store/clone/safety-rollback';
import type { TargetContext } from '../../../workflows/clone/engine-types';
import { compareTableDq, validateTable } from '../logic/table-compare';
import { evaluateDq, type DqComparison, type DqVerdict } from '../logic/dq-drift';
import {
  decideAutoRollback,
  summariseValidation,
  type AutoRollbackDecision,
  type TableValidation,
  type ValidationSummary,
} from '../logic/validation';
import { autoRollbackOn, rollbackThreshold } from './options';
import type { SafetyDeps } from '../rollback/activities';
import { snapshotVersionsFor } from '../snapshots/store';

export interface PostCloneReport {
  target: string;
  validation: ValidationSummary | null;
  dq_comparison: DqVerdict | null;
  decision: AutoRollbackDecision;
  /** The target's rollback log, when one was recorded. */
  rollback_id: string | null;
}

/** Which source version a destination table came from: snapshot version, as_of_*, else what the clone read. */
async function sourceAtFor(
  deps: SafetyDeps,
  ctx: TargetContext,
): Promise<(schema: string, table: string, recorded: number | null) => TimeTravel | undefined> {
  const o = ctx.options;
  const snapshot = o.source_snapshot_id ? await snapshotVersionsFor(deps.db, o.source_snapshot_id) : null;
  return (schema, table, recorded) => {
    const v = snapshot?.get(`${schema}.${table}`);
    if (v !== undefined && v !== null) return { version: v };
    if (o.as_of_version !== undefined) return { version: o.as_of_version };
    if (o.as_of_timestamp !== undefined) return { timestamp: o.as_of_timestamp };
    return recorded === null ? undefined : { version: recorded };
  };
}

const refs = (ctx: TargetContext, schema: string, name: string) => ({
  from: { catalog: ctx.options.source_catalog, schema, name },
  to: { catalog: ctx.target.destinationCatalog, schema, name },
});

/** DQ comparison of every table the job cloned in one schema (the `afterSchema` step). Stored per table. */
export async function compareSchemaDq(deps: SafetyDeps, ctx: TargetContext, schema: string): Promise<DqComparison[]> {
  const [src, dst] = await Promise.all([
    deps.resolveWorkspace(ctx.source),
    deps.resolveWorkspace(ctx.target.workspace),
  ]);
  const at = await sourceAtFor(deps, ctx);
  const out: DqComparison[] = [];
  for (const t of await clonedTables(deps.db, ctx.jobId, ctx.target.label, schema)) {
    const { from, to } = refs(ctx, schema, t.tableName);
    const c = await compareTableDq(src, dst, from, to, at(schema, t.tableName, t.sourceVersion));
    const threshold = ctx.options.dq_drift_rollback_pct;
    await putCloneCheck(deps.db, {
      jobId: ctx.jobId,
      target: ctx.target.label,
      kind: 'dq',
      schemaName: schema,
      tableName: t.tableName,
      passed: c.error === undefined && c.max_drift_pct <= threshold,
      details: c as unknown as Record<string, unknown>,
    });
    out.push(c);
  }
  return out;
}

/**
 * After the clone: validation (row counts, checksums) of every cloned table, the DQ verdict of the per-schema
 * comparisons, and whether auto rollback must run. Results are stored, so a retry recomputes the same answer.
 */
export async function postCloneChecks(deps: SafetyDeps, ctx: TargetContext): Promise<PostCloneReport> {
  const o = ctx.options;
  let validation: ValidationSummary | null = null;
  if (o.validate_after_clone && !o.dry_run) {
    const [src, dst] = await Promise.all([
      deps.resolveWorkspace(ctx.source),
      deps.resolveWorkspace(ctx.target.workspace),
    ]);
    const at = await sourceAtFor(deps, ctx);
    const results: TableValidation[] = [];
    for (const t of await clonedTables(deps.db, ctx.jobId, ctx.target.label)) {
      heartbeat();
      const { from, to } = refs(ctx, t.schemaName, t.tableName);
      const r = await validateTable(src, dst, from, to, {
        checksum: o.validate_checksum,
        sourceAt: at(t.schemaName, t.tableName, t.sourceVersion),
      });
      await putCloneCheck(deps.db, {
        jobId: ctx.jobId,
        target: ctx.target.label,
        kind: 'validation',
        schemaName: t.schemaName,
        tableName: t.tableName,
        passed: r.match && r.error === undefined,
        details: r as unknown as Record<string, unknown>,
      });
      results.push(r);
    }
    validation = summariseValidation(results);
  }
  let dq: DqVerdict | null = null;
  if (o.compare_dq_after_clone && !o.dry_run) {
    const rows = await cloneChecksFor(deps.db, ctx.jobId, ctx.target.label, 'dq');
    dq = evaluateDq(
      rows.map((r) => r.details as unknown as DqComparison),
      o.dq_drift_rollback_pct,
    );
  }
  const logRow = await findRollbackTarget(deps.db, ctx.jobId, ctx.target.label);
  const decision = decideAutoRollback({
    enabled: autoRollbackOn(o) && Boolean(logRow),
    thresholdPct: rollbackThreshold(o),
    validation,
    dq,
  });
  if (decision.triggered)
    safetyLog('warn', 'auto rollback triggered', {
      jobId: ctx.jobId,
      target: ctx.target.label,
      reasons: decision.reasons,
    });
  return { target: ctx.target.label, validation, dq_comparison: dq, decision, rollback_id: logRow?.rollbackId ?? null };
}
