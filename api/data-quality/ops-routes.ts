import { z } from 'zod';
import type { CrossTableResult, RuleTestResult } from '../../activities/data-quality/ops';
import { CrossTableParamError, planCrossTableCheck } from '../../activities/data-quality/logic/cross-table';
import { nextAnomalyStatus, type AnomalyAction } from '../../activities/data-quality/logic/anomaly';
import { parseGxSuite, validationHtml, type SuiteValidation } from '../../activities/data-quality/logic/gx';
import { inlineRuleCheck, type InlineRule } from '../../activities/data-quality/logic/inline-rules';
import {
  AnomalyQuerySchema,
  AnomalySchema,
  CrossTableBodySchema,
  CrossTableResultSchema,
  DqEventQuerySchema,
  DqEventSchema,
  GateEvaluateBodySchema,
  GateResultSchema,
  IdParamsSchema,
  InlineRuleCreateSchema,
  InlineRuleSchema,
  RuleListQuerySchema,
  RuleTestBodySchema,
  RuleTestResultSchema,
  SuiteCreateSchema,
  SuiteNameParamsSchema,
  SuiteSchema,
  SuiteValidationSchema,
} from '../../schemas/data-quality-ops';
import {
  asInlineRule,
  createInlineRule,
  createSuite,
  findInlineRule,
  getAnomaly,
  getSuite,
  listAnomalies,
  listDqEvents,
  listInlineRules,
  listSuites,
  moveAnomaly,
  setInlineRuleActive,
  type DqInlineRuleRow,
} from '../../store/data-quality/ops';
import type { AppDeps } from '../deps';
import { HttpError } from '../middleware/http-error';
import { route } from '../middleware/route';
import { actorOf, dqWorkspace, issuesError, tableShape } from './checks-service';
import {
  anomalyView,
  evaluateGateApi,
  eventView,
  newId,
  requireRule,
  ruleView,
  runDqOperation,
  suiteView,
} from './ops-service';

const DQ = '/data-quality';
const G = '/governance';

const ruleFunction = (r: DqInlineRuleRow) => {
  const c = inlineRuleCheck(asInlineRule(r) as InlineRule);
  return c.ok ? c.check.check_function : '';
};

async function requireSuite(deps: AppDeps, name: string) {
  const s = await getSuite(deps.store.db, name);
  if (!s)
    throw new HttpError(404, 'NOT_FOUND', `No expectation suite ${name}`, [
      { path: 'params.name', message: 'no such suite' },
    ]);
  return s;
}

const anomalyAction = (action: AnomalyAction, path: string, summary: string) =>
  route({
    method: 'post',
    path: `${DQ}/anomalies/:id/${path}`,
    summary,
    request: { params: IdParamsSchema },
    response: { description: 'The anomaly after the change', schema: AnomalySchema },
    errors: { 404: 'No such anomaly', 409: 'Not allowed from the anomaly status' },
    handler: async ({ deps, input: { params } }) => {
      const a = await getAnomaly(deps.store.db, params.id);
      if (!a)
        throw new HttpError(404, 'NOT_FOUND', `No anomaly ${params.id}`, [
          { path: 'params.id', message: 'no such anomaly' },
        ]);
      const to = nextAnomalyStatus(a.status, action);
      const from = (['open', 'acknowledged', 'resolved', 'false_positive'] as const).filter(
        (s) => nextAnomalyStatus(s, action) === to,
      );
      const moved = to
        ? await moveAnomaly(deps.store.db, a.anomalyId, [...from], to, actorOf(deps), new Date())
        : undefined;
      if (!moved) {
        const now = (await getAnomaly(deps.store.db, params.id))?.status ?? a.status;
        throw new HttpError(
          409,
          'INVALID_TRANSITION',
          `Anomaly ${params.id} is ${now}: ${path} is not allowed from ${now}`,
          [{ path: 'params.id', message: `status is ${now}` }],
        );
      }
      return anomalyView(moved);
    },
  });

export const opsRoutes = [
  route({
    method: 'post',
    path: `${DQ}/gate/evaluate`,
    summary:
      "Quality gate: a table's enabled checks (or a suite) against min_pass_rate; fails closed when it cannot run",
    role: 'viewer',
    request: { body: GateEvaluateBodySchema },
    response: { description: 'The verdict with its reason', schema: GateResultSchema },
    errors: { 503: 'Temporal is not configured' },
    handler: async ({ deps, input: { body } }) => evaluateGateApi(deps, body),
  }),
  route({
    method: 'get',
    path: `${DQ}/dqx/rules`,
    summary: 'Inline rules (checked on the rows a clone copies)',
    request: { query: RuleListQuerySchema },
    response: { description: 'Rules', schema: z.array(InlineRuleSchema) },
    handler: async ({ deps, input: { query } }) =>
      (await listInlineRules(deps.store.db, { tableFqn: query.table_fqn, active: query.active })).map((r) =>
        ruleView(r, ruleFunction(r)),
      ),
  }),
  route({
    method: 'post',
    path: `${DQ}/dqx/rules`,
    summary: 'Create an inline rule; it compiles to an engine check, validated against the table',
    request: { body: InlineRuleCreateSchema },
    response: { status: 201, description: 'The rule', schema: InlineRuleSchema },
    errors: {
      404: 'The table does not exist',
      409: 'A rule of that name exists on the table',
      422: 'The rule does not fit the table',
    },
    handler: async ({ deps, input: { body } }) => {
      const rule: InlineRule = { ...body, column: body.column ?? null };
      const shape = await tableShape(await dqWorkspace(deps), body.table_fqn);
      const compiled = inlineRuleCheck(rule, shape);
      if (!compiled.ok) throw issuesError(compiled.issues);
      if (await findInlineRule(deps.store.db, body.table_fqn, body.name))
        throw new HttpError(409, 'ALREADY_EXISTS', `${body.table_fqn} already has a rule named ${body.name}`, [
          { path: 'body.name', message: 'name must be unique within the table' },
        ]);
      const row = await createInlineRule(deps.store.db, {
        ruleId: newId('rule'),
        name: body.name,
        tableFqn: body.table_fqn,
        checkType: body.check_type,
        columnName: body.column ?? null,
        params: body.params,
        severity: body.severity,
        action: body.action,
        runtime: body.runtime,
        active: body.active,
        createdBy: actorOf(deps),
      });
      return ruleView(row, compiled.check.check_function);
    },
  }),
  route({
    method: 'post',
    path: `${DQ}/dqx/rules/:id/test`,
    summary: 'Run a rule on at most 1,000 rows of its table: violations and up to 10 violating rows',
    role: 'viewer',
    request: { params: IdParamsSchema, body: RuleTestBodySchema.optional() },
    response: { description: 'The test result', schema: RuleTestResultSchema },
    errors: {
      404: 'No such rule or table',
      422: 'The rule no longer fits its table',
      503: 'Temporal is not configured',
    },
    handler: async ({ deps, input: { params, body } }) => {
      const rule = await requireRule(deps, params.id);
      return runDqOperation<RuleTestResult>(deps, 'rule-test', {
        kind: 'rule_test',
        ruleId: rule.ruleId,
        limit: body?.limit ?? 1000,
      });
    },
  }),
  ...(['activate', 'deactivate'] as const).map((verb) =>
    route({
      method: 'post',
      path: `${DQ}/dqx/rules/:id/${verb}`,
      summary: verb === 'activate' ? 'Activate a rule: clones of its table apply it' : 'Deactivate a rule',
      request: { params: IdParamsSchema },
      response: { description: 'The rule', schema: InlineRuleSchema },
      errors: { 404: 'No such rule' },
      handler: async ({ deps, input: { params } }) => {
        await requireRule(deps, params.id);
        const row = (await setInlineRuleActive(deps.store.db, params.id, verb === 'activate'))!;
        return ruleView(row, ruleFunction(row));
      },
    }),
  ),
  route({
    method: 'post',
    path: `${G}/dq/cross-table-check`,
    summary: 'Cross-table check: aggregate_match, referential_integrity, row_count_match or custom_sql',
    role: 'viewer',
    request: { body: CrossTableBodySchema },
    response: {
      description: 'Result, with up to 10 mismatching groups or orphan keys',
      schema: CrossTableResultSchema,
    },
    errors: { 503: 'Temporal is not configured' },
    handler: async ({ deps, input: { body } }) => {
      try {
        planCrossTableCheck(body.check_type, body.params);
      } catch (err) {
        if (!(err instanceof CrossTableParamError)) throw err;
        throw new HttpError(400, 'VALIDATION_ERROR', `body.${err.path}: ${err.message}`, [
          { path: `body.${err.path}`, message: err.message },
        ]);
      }
      return runDqOperation<CrossTableResult>(deps, 'cross-table', { kind: 'cross_table', req: body });
    },
  }),
  route({
    method: 'get',
    path: `${DQ}/anomalies`,
    summary: 'Anomalies, newest first, filtered by status and severity',
    request: { query: AnomalyQuerySchema },
    response: { description: 'Anomalies', schema: z.array(AnomalySchema) },
    handler: async ({ deps, input: { query: q } }) =>
      (
        await listAnomalies(deps.store.db, {
          status: q.status,
          severity: q.severity,
          tableFqn: q.table_fqn,
          limit: q.limit,
          offset: q.offset,
        })
      ).map(anomalyView),
  }),
  anomalyAction('acknowledge', 'acknowledge', 'Acknowledge an open anomaly'),
  anomalyAction('resolve', 'resolve', 'Resolve an open or acknowledged anomaly'),
  anomalyAction(
    'false_positive',
    'false-positive',
    'Mark an open anomaly a false positive: its value joins the baseline and is not flagged again',
  ),
  route({
    method: 'get',
    path: `${DQ}/expectations/suites`,
    summary: 'Expectation suites',
    response: { description: 'Suites', schema: z.array(SuiteSchema) },
    handler: async ({ deps }) => (await listSuites(deps.store.db)).map(suiteView),
  }),
  route({
    method: 'post',
    path: `${DQ}/expectations/suites`,
    summary: 'Create a suite (from a Great Expectations suite JSON); unsupported expectations are listed, not dropped',
    request: { body: SuiteCreateSchema },
    response: { status: 201, description: 'The suite', schema: SuiteSchema },
    errors: { 409: 'A suite of that name exists' },
    handler: async ({ deps, input: { body } }) => {
      let parsed;
      try {
        parsed = parseGxSuite(body.gx_suite ?? { expectations: body.expectations });
      } catch (err) {
        throw new HttpError(400, 'VALIDATION_ERROR', `body.gx_suite: ${(err as Error).message}`, [
          { path: 'body.gx_suite', message: (err as Error).message },
        ]);
      }
      const name = body.name ?? parsed.name;
      if (!name || !/^[A-Za-z0-9][A-Za-z0-9_.-]{0,199}$/.test(name))
        throw new HttpError(400, 'VALIDATION_ERROR', 'body.name: give a suite name (letters, digits, ., - and _)', [
          { path: 'body.name', message: 'required (or expectation_suite_name in gx_suite)' },
        ]);
      if (await getSuite(deps.store.db, name))
        throw new HttpError(409, 'ALREADY_EXISTS', `Suite ${name} exists`, [{ path: 'body.name', message: 'exists' }]);
      const row = await createSuite(deps.store.db, {
        suiteId: newId('suite'),
        name,
        tableFqn: body.table_fqn,
        description: body.description ?? '',
        expectations: parsed.expectations as unknown as Record<string, unknown>[],
        unsupported: parsed.unsupported as unknown as Record<string, unknown>[],
        createdBy: actorOf(deps),
      });
      return suiteView(row);
    },
  }),
  route({
    method: 'post',
    path: `${DQ}/expectations/suites/:name/validate`,
    summary: 'Validate a suite through the engine: per-expectation results (kept for the docs page)',
    role: 'viewer',
    request: { params: SuiteNameParamsSchema },
    response: { description: 'The validation', schema: SuiteValidationSchema },
    errors: { 404: 'No such suite or table', 503: 'Temporal is not configured' },
    handler: async ({ deps, input: { params } }) => {
      const suite = await requireSuite(deps, params.name);
      return runDqOperation<SuiteValidation>(deps, 'suite', { kind: 'suite_validate', suite: suite.suiteId });
    },
  }),
  ...(['get', 'post'] as const).map((method) =>
    route({
      method,
      path: `${DQ}/expectations/suites/:name/docs`,
      summary: "Data Docs: an HTML report of the suite's last validation",
      role: 'viewer',
      request: { params: SuiteNameParamsSchema },
      response: { description: 'HTML', schema: z.string(), mediaTypes: ['text/html'] },
      errors: { 404: 'No such suite', 409: 'The suite has not been validated yet' },
      handler: async ({ deps, input: { params }, res }) => {
        const suite = await requireSuite(deps, params.name);
        if (!suite.lastValidation)
          throw new HttpError(
            409,
            'NOT_VALIDATED',
            `Suite ${suite.name} has not been validated yet: POST …/validate first`,
          );
        res.type('text/html').send(validationHtml(suite.lastValidation as unknown as SuiteValidation));
        return undefined;
      },
    }),
  ),
  route({
    method: 'get',
    path: `${DQ}/events`,
    summary: 'Typed data-quality events (gate, inline rules, critical anomalies, scheduled runs), oldest first',
    request: { query: DqEventQuerySchema },
    response: { description: 'Events', schema: z.array(DqEventSchema) },
    handler: async ({ deps, input: { query: q } }) =>
      (await listDqEvents(deps.store.db, { type: q.type, jobId: q.job_id, tableFqn: q.table_fqn, limit: q.limit })).map(
        eventView,
      ),
  }),
];
