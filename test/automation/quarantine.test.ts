import { insertChecks } from '../../store/data-quality/checks';
import { createInlineRule, listDqEvents } from '../../store/data-quality/ops';
import { automationStack, type AutomationStack } from './stack';

let s: AutomationStack;
beforeAll(async () => {
  s = await automationStack('automation-quarantine');
  const ws = s.h.open(s.root);
  await ws.createSchema({ catalog: 'prod', name: 'pbq' });
  const ref = { catalog: 'prod', schema: 'pbq', name: 'events' };
  await ws.createTable({
    ref,
    columns: [
      { name: 'id', type: 'bigint' },
      { name: 'email', type: 'string' },
      { name: 'amount', type: 'double' },
    ],
  });
  // Row 3 has no e-mail, row 5 a negative amount.
  await ws.insertRows(
    ref,
    Array.from({ length: 8 }, (_, i) => ({
      id: i + 1,
      email: i + 1 === 3 ? null : `u${i + 1}@example.com`,
      amount: i + 1 === 5 ? -2 : (i + 1) * 10,
    })),
  );
  await createInlineRule(s.h.store.db, {
    ruleId: 'pbq-email',
    name: 'email_present',
    tableFqn: 'prod.pbq.events',
    checkType: 'not_null',
    columnName: 'email',
    params: {},
    severity: 'critical',
    action: 'log',
    active: true,
    createdBy: 'test',
  });
  await insertChecks(
    s.h.store.db,
    [
      {
        checkId: 'pbq-amount',
        name: 'amount_positive',
        tableFqn: 'prod.pbq.events',
        criticality: 'error',
        checkFunction: 'is_not_less_than',
        arguments: { column: 'amount', limit: 0 },
        createdBy: 'test',
      },
    ],
    'test',
  );
}, 120_000);
afterAll(async () => s?.stop());

const ids = async (sql: string) =>
  (await s.h.open(s.root).query(sql)).rows.map((r) => Number((r as { id: unknown }).id)).sort((a, b) => a - b);

async function execute(params: Record<string, unknown>, event: Record<string, unknown> = {}) {
  const created = await s
    .api()
    .post('/api/playbooks')
    .send({ name: 'quarantine', trigger_type: 'dq_failure', actions: [{ type: 'quarantine', params }] })
    .expect(201);
  return (await s.api().post(`/api/playbooks/${created.body.playbook_id}/execute`).send({ event }).expect(200)).body;
}

test('quarantine moves the rows failing the table’s inline rules and enabled checks to <table>_quarantine', async () => {
  const run = await execute({ table_fqn: '{{event.table_fqn}}' }, { table_fqn: 'prod.pbq.events' });
  expect(run.status).toBe('succeeded');
  expect(run.actions[0].output).toEqual({
    table_fqn: 'prod.pbq.events',
    quarantine_table: 'prod.pbq.events_quarantine',
    moved: 2,
    rules: ['email_present', 'amount_positive'],
  });
  expect(await ids('SELECT id FROM prod.pbq.events')).toEqual([1, 2, 4, 6, 7, 8]);
  expect(await ids('SELECT id FROM prod.pbq.events_quarantine')).toEqual([3, 5]);
  const [event] = await listDqEvents(s.h.store.db, { type: 'rule_quarantined', tableFqn: 'prod.pbq.events' });
  expect(event.payload).toMatchObject({ violations: 2, quarantine_table: 'prod.pbq.events_quarantine' });

  // A later violation is appended to the same quarantine table; nothing left to move moves nothing.
  await s.h
    .open(s.root)
    .insertRows({ catalog: 'prod', schema: 'pbq', name: 'events' }, [{ id: 9, email: null, amount: 1 }]);
  const again = await execute({ table_fqn: 'prod.pbq.events', rules: ['email_present'] });
  expect(again.actions[0].output).toMatchObject({ moved: 1, rules: ['email_present'] });
  expect(await ids('SELECT id FROM prod.pbq.events_quarantine')).toEqual([3, 5, 9]);
  expect((await execute({ table_fqn: 'prod.pbq.events' })).actions[0].output.moved).toBe(0);
}, 60_000);

test('quarantine of a table without rules, or naming an unknown rule, fails the action once (not retried)', async () => {
  const none = await execute({ table_fqn: 'prod.sales.orders' });
  expect(none.status).toBe('failed');
  expect(none.actions[0]).toMatchObject({ status: 'failed', attempts: 1 });
  expect(none.actions[0].error).toContain('no active inline rules or enabled row-level checks');
  const unknown = await execute({ table_fqn: 'prod.pbq.events', rules: ['nope'] });
  expect(unknown.actions[0].error).toContain('no active inline rule nope on prod.pbq.events');
  const bad = await execute({ table_fqn: 'prod.pbq' });
  expect(bad.actions[0].error).toContain('params.table_fqn must be catalog.schema.table');
}, 60_000);
