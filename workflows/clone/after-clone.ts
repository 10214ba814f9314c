import { executeChild, ParentClosePolicy } from '@temporalio/workflow';
import type { PostCloneReport } from '../../activities/clone/post-clone/post-clone';
import type { MaskingReport } from '../../activities/clone/masking/apply';
import type { CloneSummary } from './definitions';
import type { TargetContext } from './engine-types';
import { rollbackWorkflowId, type RollbackResult } from './rollback-definitions';
import { rollbackWorkflow } from './rollback-workflow';
import { checks } from './safety-proxies';

export interface TargetSafety {
  validation?: PostCloneReport['validation'];
  dq_comparison?: PostCloneReport['dq_comparison'];
  auto_rollback?: {
    triggered: boolean;
    reasons: string[];
    mismatch_pct: number;
    threshold_pct: number;
    rollback_id: string | null;
    result?: Omit<RollbackResult, 'steps'>;
  };
  masking?: MaskingReport;
}

const wanted = (c: TargetContext) =>
  !c.options.dry_run && (c.options.validate_after_clone || c.options.compare_dq_after_clone || c.options.auto_mask_pii);

/**
 * Post-clone safety for each target: validation and DQ verdict, then either auto rollback (a child
 * rollback workflow, observable on its own) or PII masking of the destination. Returns summary fields:
 * `validation {passed, matched, mismatched, …}`, `dq_comparison`, `auto_rollback`, `masking`; with several
 * targets they are keyed by target under `safety`.
 */
export async function safetyAfterClone(
  contexts: TargetContext[],
  summary: Pick<CloneSummary, 'status'>,
): Promise<Record<string, unknown>> {
  const perTarget: Record<string, TargetSafety> = {};
  let rolledBack = false;
  for (const ctx of contexts.filter(wanted)) {
    const report = await checks.postCloneChecks(ctx);
    const out: TargetSafety = {};
    if (report.validation) out.validation = report.validation;
    if (report.dq_comparison) out.dq_comparison = report.dq_comparison;
    const d = report.decision;
    if (d.triggered && report.rollback_id) {
      const { steps: _steps, ...result } = await executeChild(rollbackWorkflow, {
        workflowId: rollbackWorkflowId(report.rollback_id),
        args: [{ rollbackId: report.rollback_id, reason: `auto: ${d.reasons.join('; ')}` }],
        parentClosePolicy: ParentClosePolicy.ABANDON,
      });
      out.auto_rollback = {
        triggered: true,
        reasons: d.reasons,
        mismatch_pct: d.mismatch_pct,
        threshold_pct: d.threshold_pct,
        rollback_id: report.rollback_id,
        result,
      };
      rolledBack = true;
    } else {
      if (d.reasons.length)
        out.auto_rollback = {
          triggered: false,
          reasons: d.reasons,
          mismatch_pct: d.mismatch_pct,
          threshold_pct: d.threshold_pct,
          rollback_id: report.rollback_id,
        };
      if (ctx.options.auto_mask_pii) out.masking = await checks.maskPiiColumns(ctx);
    }
    perTarget[ctx.target.label] = out;
  }
  const labels = Object.keys(perTarget);
  if (labels.length === 0) return {};
  const fields: Record<string, unknown> =
    labels.length === 1 && contexts.length === 1 ? { ...perTarget[labels[0]] } : { safety: perTarget };
  if (rolledBack && summary.status === 'completed') {
    fields.status = 'failed';
    fields.error = 'post-clone checks failed; the destination was rolled back (see auto_rollback)';
  }
  return fields;
}
