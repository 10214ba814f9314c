import { randomUUID } from 'node:crypto';
import type { DqOperation } from '../../activities/data-quality';
import type { GateResult } from '../../activities/data-quality/logic/gate';
import type { DqAnomalyRow, DqEventRow, DqInlineRuleRow, DqSuiteRow } from '../../store/data-quality/ops';
import { getInlineRule, recordDqEvent } from '../../store/data-quality/ops';
import type { AppDeps } from '../deps';
import { HttpError } from '../middleware/http-error';
import { actorOf } from './checks-service';
import { directWorkflowId, executeDqWorkflow } from './direct-workflow';

export const newId = (prefix: string) => `${prefix}-${randomUUID().replace(/-/g, '').slice(0, 12)}`;

/** Runs one data-quality operation on the worker (dqOperationWorkflow) and waits for its result. */
export function runDqOperation<T>(deps: AppDeps, kind: string, op: DqOperation, workflowId = directWorkflowId(kind)) {
  return executeDqWorkflow<T>(deps, 'dqOperationWorkflow', workflowId, op);
}

/** Evaluates the gate; a gate that did not pass is an incident (typed event + notification). */
export async function evaluateGateApi(
  deps: AppDeps,
  body: { table_fqn?: string | null; suite_id?: string | null; min_pass_rate: number },
): Promise<GateResult> {
  const id = directWorkflowId('gate');
  const req = {
    gateId: id,
    table_fqn: body.table_fqn,
    suite_id: body.suite_id,
    min_pass_rate: body.min_pass_rate,
    executedBy: actorOf(deps),
  };
  const result = await runDqOperation<GateResult>(deps, 'gate', { kind: 'gate', req }, id);
  if (!result.passed)
    await recordDqEvent(deps.store.db, {
      type: 'gate_failed',
      tableFqn: result.table_fqn,
      message: `Quality gate ${result.suite_id ? `suite ${result.suite_id}` : result.table_fqn}: ${result.reason}`,
      payload: { ...result, gate_id: id },
    });
  return result;
}

export async function requireRule(deps: AppDeps, id: string): Promise<DqInlineRuleRow> {
  const rule = await getInlineRule(deps.store.db, id);
  if (!rule)
    throw new HttpError(404, 'NOT_FOUND', `No inline rule ${id}`, [{ path: 'params.id', message: 'no such rule' }]);
  return rule;
}

export function ruleView(r: DqInlineRuleRow, checkFunction: string) {
  return {
    id: r.ruleId,
    rule_id: r.ruleId,
    name: r.name,
    table_fqn: r.tableFqn,
    check_type: r.checkType,
    column: r.columnName,
    params: r.params,
    severity: r.severity,
    action: r.action,
    runtime: r.runtime,
    active: r.active,
    check_function: checkFunction,
    created_by: r.createdBy,
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
  };
}

export function anomalyView(a: DqAnomalyRow) {
  return {
    id: a.anomalyId,
    anomaly_id: a.anomalyId,
    metric: a.metric,
    table_fqn: a.tableFqn,
    column: a.columnName === '' ? null : a.columnName,
    observed_value: a.observedValue,
    expected_range: { min: a.expectedMin, max: a.expectedMax },
    baseline: { mean: a.baselineMean, stddev: a.baselineStddev, samples: a.baselineSamples },
    z_score: a.zScore,
    severity: a.severity as 'info' | 'warning' | 'critical',
    detected_at: a.detectedAt.toISOString(),
    status: a.status as 'open' | 'acknowledged' | 'resolved' | 'false_positive',
    run_id: a.runId,
    status_changed_at: a.statusChangedAt?.toISOString() ?? null,
    status_changed_by: a.statusChangedBy,
  };
}

export function suiteView(s: DqSuiteRow) {
  const expectations = s.expectations as unknown as {
    expectation_type: string;
    kwargs: Record<string, unknown>;
    checks: { check_function?: string }[];
  }[];
  return {
    suite_id: s.suiteId,
    name: s.name,
    table_fqn: s.tableFqn,
    description: s.description,
    expectations: expectations.map((e) => ({
      expectation_type: e.expectation_type,
      kwargs: e.kwargs,
      check_functions: e.checks.map((c) => String(c.check_function)),
    })),
    unsupported: s.unsupported as { expectation_type: string; kwargs: Record<string, unknown>; reason: string }[],
    last_validated_at: (s.lastValidation?.run_time as string | undefined) ?? null,
    created_by: s.createdBy,
    created_at: s.createdAt.toISOString(),
  };
}

export function eventView(e: DqEventRow) {
  return {
    id: e.id,
    type: e.type,
    table_fqn: e.tableFqn,
    job_id: e.jobId,
    message: e.message,
    payload: e.payload,
    created_at: e.createdAt.toISOString(),
  };
}
