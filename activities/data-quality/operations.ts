import type { Workspace } from '../../platform/port';
import type { Store } from '../../store/db';
import { getInlineRule, getSuite } from '../../store/data-quality/ops';
import { NotFoundError } from '../../platform/errors';
import type { CrossTableType } from './logic/cross-table';
import type { GateResult } from './logic/gate';
import type { SuiteValidation } from './logic/gx';
import {
  evaluateGate,
  ruleOf,
  runCrossTableCheck,
  testRule,
  validateSuite,
  type CrossTableResult,
  type GateRequest,
  type RuleTestResult,
} from './ops';

/** One short data-quality operation, run by dqOperationWorkflow for the API (which never runs queries itself). */
export type DqOperation =
  | { kind: 'gate'; req: GateRequest }
  | { kind: 'suite_validate'; suite: string }
  | { kind: 'rule_test'; ruleId: string; limit: number }
  | { kind: 'cross_table'; req: { check_type: CrossTableType; params: Record<string, unknown> } };

export type DqOperationResult = GateResult | SuiteValidation | RuleTestResult | CrossTableResult;

export async function runOperation(ws: Workspace, store: Store, op: DqOperation): Promise<DqOperationResult> {
  switch (op.kind) {
    case 'gate':
      return evaluateGate(ws, store, op.req);
    case 'suite_validate': {
      const suite = await getSuite(store.db, op.suite);
      if (!suite) throw new NotFoundError(`no expectation suite ${op.suite}`);
      return validateSuite(ws, store, suite);
    }
    case 'rule_test': {
      const rule = await getInlineRule(store.db, op.ruleId);
      if (!rule) throw new NotFoundError(`no inline rule ${op.ruleId}`);
      return testRule(ws, ruleOf(rule), op.limit);
    }
    case 'cross_table':
      return runCrossTableCheck(ws, op.req);
  }
}
