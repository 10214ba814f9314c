import { checkCondition, evaluateCondition, legacyToCel } from '../../activities/automation/logic/conditions';
import { eventEnvelope, knownFields } from '../../activities/automation/logic/event-shape';
import { globMatches, triggerMatches } from '../../activities/automation/logic/match';
import { executionOutcome, renderParams, retryableStatus } from '../../activities/automation/logic/render';

const jobEvent = (payload: Record<string, unknown>, type = 'job.failed') =>
  eventEnvelope({ id: 7, type, tableFqn: null, jobId: 'clone-1', message: 'm', payload, createdAt: new Date(0) });

test("an event envelope has the common fields, its trigger's fields (null when absent) and the payload as data", () => {
  const e = jobEvent({ severity: 'error', job_type: 'clone', extra: 1 });
  expect(e).toMatchObject({ id: '7', type: 'job.failed', severity: 'error', job_id: 'clone-1', job_type: 'clone' });
  expect(e.error).toBeNull();
  expect(e.data).toEqual({ severity: 'error', job_type: 'clone', extra: 1 });
  expect(
    eventEnvelope({
      id: 1,
      type: 'anomaly_critical',
      tableFqn: 'a.b.c',
      jobId: null,
      message: '',
      payload: {},
      createdAt: new Date(0),
    }).severity,
  ).toBe('critical');
});

test('conditions evaluate over the event (maps, lists, null) and report an evaluation error instead of throwing', () => {
  const e = jobEvent({ job_type: 'clone', error: 'NotFound: x', data_list: [1, 2] });
  expect(evaluateCondition("event.job_type == 'clone' && event.error.contains('NotFound')", e)).toBe(true);
  expect(evaluateCondition('event.source_catalog == null', e)).toBe(true);
  expect(evaluateCondition("event.data.job_type == 'dq'", e)).toBe(false);
  expect(evaluateCondition('size(event.data.data_list) == 2', e)).toBe(true);
  expect(evaluateCondition('event.data.missing == 1', e)).toEqual({ error: expect.stringContaining('missing') });
  expect(evaluateCondition('event.job_type', e)).toEqual({ error: 'the condition gave string, not a bool' });
  expect(evaluateCondition('', e)).toBe(true);
});

test("a condition may read only event and its trigger's fields; comprehension variables are allowed", () => {
  const known = knownFields('job_failed');
  expect(checkCondition('event.data.exists(k, k == "x") && [1].all(i, i > 0)', known)).toEqual([]);
  expect(checkCondition('this.constructor', known)[0].message).toContain('unknown variable this');
  expect(checkCondition('process.env', known)[0].message).toContain('unknown variable process');
  expect(checkCondition('event.anomaly_id == "a"', known)[0].message).toContain('unknown field event.anomaly_id');
  expect(checkCondition('event.(', known)[0].message).toContain('not a CEL expression');
});

test('legacy conditions compile to CEL: numbers as doubles, in, contains, word operators', () => {
  expect(
    legacyToCel([
      { field: 'failure_rate', operator: 'gte', value: 1 },
      { field: 'job_type', operator: 'in', value: ['clone', 'dq'] },
      { field: 'error', operator: 'contains', value: 'Not"Found' },
    ]),
  ).toBe('event.failure_rate >= 1.0 && event.job_type in ["clone", "dq"] && event.error.contains("Not\\"Found")');
});

test('triggers match by event type, job types, table globs and least severity', () => {
  const e = { ...jobEvent({ severity: 'error', job_type: 'clone' }), table_fqn: 'prod.sales.orders' };
  const spec = (c: Record<string, unknown>) => ({ triggerType: 'job_failed' as const, triggerConfig: c });
  expect(triggerMatches(spec({}), e)).toBe(true);
  expect(triggerMatches({ triggerType: 'job_succeeded', triggerConfig: {} }, e)).toBe(false);
  expect(triggerMatches(spec({ job_types: ['dq'] }), e)).toBe(false);
  expect(triggerMatches(spec({ tables: ['prod.*.orders'] }), e)).toBe(true);
  expect(triggerMatches(spec({ tables: ['dev.*'] }), e)).toBe(false);
  expect(triggerMatches(spec({ min_severity: 'critical' }), e)).toBe(false);
  expect(triggerMatches(spec({ min_severity: 'warning' }), e)).toBe(true);
  expect(globMatches('prod.sales.ord*', 'PROD.sales.orders')).toBe(true);
  expect(globMatches('prod.s.x', 'prodXsXx')).toBe(false);
});

test('parameters render {{event.x}} everywhere without HTML escaping; outcomes and retryable statuses', () => {
  expect(renderParams({ a: '<{{event.t}}>', b: ['{{event.data.k}}'], n: 3 }, { t: 'a&b', data: { k: 'v' } })).toEqual({
    a: '<a&b>',
    b: ['v'],
    n: 3,
  });
  const a = (status: string) => ({
    type: 'notify' as const,
    status: status as 'failed',
    attempts: 1,
    output: null,
    error: null,
  });
  expect(executionOutcome([a('succeeded'), a('skipped')])).toBe('succeeded');
  expect(executionOutcome([a('succeeded'), a('failed')])).toBe('partial');
  expect(executionOutcome([a('failed'), a('skipped')])).toBe('failed');
  expect([408, 429, 500, 503, 400, 404, 301].map(retryableStatus)).toEqual([
    true,
    true,
    true,
    true,
    false,
    false,
    false,
  ]);
});
