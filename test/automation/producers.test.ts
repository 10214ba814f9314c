import { listDqEvents } from '../../store/data-quality/ops';
import { recentNotifications } from '../../store/notifications/repo';
import { automationStack, historyOf, type AutomationStack } from './stack';

let s: AutomationStack;
beforeAll(async () => {
  s = await automationStack('automation-producers');
}, 120_000);
afterAll(async () => s?.stop());

const O = '/api/governance/odcs';

async function playbook(body: Record<string, unknown>): Promise<string> {
  const res = await s
    .api()
    .post('/api/playbooks')
    .send({ name: String(body.trigger_type), ...body })
    .expect(201);
  return res.body.playbook_id as string;
}

async function table(catalog: string, columns: { name: string; type: string }[], rows: Record<string, unknown>[]) {
  const ws = s.h.open(s.root);
  if (!(await ws.listCatalogs()).some((c) => c.name === catalog)) {
    await ws.createCatalog({ name: catalog });
    await ws.createSchema({ catalog, name: 'sales' });
  }
  const ref = { catalog, schema: 'sales', name: 'orders' };
  await ws.createTable({ ref, columns });
  if (rows.length) await ws.insertRows(ref, rows);
  return ref;
}

test('the monitor’s schema drift is a schema.drift event once per distinct drift, and a schema_drift playbook tags the drifted table', async () => {
  const id = await playbook({
    trigger_type: 'schema_drift',
    trigger_config: { tables: ['drift_dst.*.*'] },
    conditions: "'email' in event.removed",
    actions: [{ type: 'tag_table', params: { table_fqn: '{{event.table_fqn}}', tags: { drifted: '{{event.type}}' } } }],
  });
  const id_ = { name: 'id', type: 'bigint' };
  const email = { name: 'email', type: 'string' };
  await table('drift_src', [id_, email], [{ id: 1, email: 'a@example.com' }]);
  const dst = await table('drift_dst', [id_], [{ id: 1 }]);
  const pair = { source_catalog: 'drift_src', destination_catalog: 'drift_dst' };

  const first = (await s.api().post('/api/monitor').query(pair).expect(200)).body;
  expect(first.schema_drift).toBe(1);
  const [run] = await historyOf(s, id, 1);
  expect(run).toMatchObject({
    status: 'succeeded',
    trigger: 'schema.drift',
    event: { table_fqn: 'drift_dst.sales.orders', removed: ['email'], added: [] },
  });
  expect(await s.h.open(s.root).getTags({ type: 'TABLE', ...dst })).toMatchObject({ drifted: 'schema.drift' });

  // The same drift seen again is not a new event; a different one is.
  await s.api().post('/api/monitor').query(pair).expect(200);
  expect(await listDqEvents(s.h.store.db, { type: 'schema.drift', tableFqn: 'drift_dst.sales.orders' })).toHaveLength(
    1,
  );
  await s.h.open(s.root).addColumns(dst, [{ name: 'extra', type: 'int' }]);
  await s.api().post('/api/cache/invalidate').send({ catalog: 'drift_dst' }).expect(200);
  await s.api().post('/api/monitor').query(pair).expect(200);
  const events = await listDqEvents(s.h.store.db, { type: 'schema.drift', tableFqn: 'drift_dst.sales.orders' });
  expect(events).toHaveLength(2);
  expect(events.map((e) => e.payload.added)).toContainEqual(['extra']);
  expect(await historyOf(s, id, 2)).toHaveLength(2);
}, 90_000);

test('a failed contract validation writes contract.violation and, past its freshness SLA, sla_breach; each fires its playbook', async () => {
  const ref = await table(
    'pbc',
    [
      { name: 'id', type: 'bigint' },
      { name: 'customer_id', type: 'bigint' },
    ],
    [
      { id: 1, customer_id: 10 },
      { id: 2, customer_id: null },
    ],
  );
  const gen = await s
    .api()
    .post(`${O}/generate`)
    .send({ catalog: 'pbc', schema: 'sales', table: 'orders', name: 'pbc_orders' })
    .expect(201);
  const doc = gen.body.document as {
    schema: { properties: { name: string; required?: boolean }[] }[];
    slaProperties?: Record<string, unknown>[];
  };
  doc.schema[0].properties.find((p) => p.name === 'customer_id')!.required = true;
  // A zero-hour latency SLA: the table's last change is already late.
  doc.slaProperties = [{ property: 'latency', value: 0, unit: 'h' }];
  await s.api().put(`${O}/pbc_orders`).send({ document: doc }).expect(200);
  await s.api().post(`${O}/pbc_orders/publish`).expect(200);

  const violation = await playbook({
    trigger_type: 'contract_violation',
    trigger_config: { contract_ids: ['pbc_orders@1.0'] },
    conditions: "event.contract_name == 'pbc_orders'",
    actions: [{ type: 'tag_table', params: { table_fqn: '{{event.table_fqn}}', tags: { contract: 'violated' } } }],
  });
  const breach = await playbook({
    trigger_type: 'sla_breach',
    trigger_config: { tables: ['pbc.sales.*'] },
    conditions: "event.sla == 'latency' && event.hours_late >= 0.0",
    actions: [{ type: 'notify', params: { message: 'SLA {{event.sla}} of {{event.table_fqn}} breached' } }],
  });

  const res = await s.api().post(`${O}/validate/pbc_orders`).send({ table_fqn: 'pbc.sales.orders' }).expect(200);
  expect(res.body.status).toBe('failed');

  const [v] = await historyOf(s, violation, 1);
  expect(v).toMatchObject({
    status: 'succeeded',
    trigger: 'contract.violation',
    event: { contract_id: 'pbc_orders@1.0', table_fqn: 'pbc.sales.orders', severity: 'error' },
  });
  expect(v.event.violations).toEqual(
    expect.arrayContaining([expect.objectContaining({ type: 'required_has_nulls', column: 'customer_id' })]),
  );
  expect(await s.h.open(s.root).getTags({ type: 'TABLE', ...ref })).toMatchObject({ contract: 'violated' });

  const [b] = await historyOf(s, breach, 1);
  expect(b).toMatchObject({ status: 'succeeded', trigger: 'sla_breach', event: { sla: 'latency' } });
  expect(Date.parse(b.event.expected_by)).toBeLessThan(Date.now());
  const notes = await recentNotifications(s.h.store.db, 50);
  expect(notes.map((n) => n.message)).toContain('SLA latency of pbc.sales.orders breached');

  // A passing validation (a clean table under its generated contract) writes neither event.
  await table('pbc_ok', [{ name: 'id', type: 'bigint' }], [{ id: 1 }]);
  await s
    .api()
    .post(`${O}/generate`)
    .send({ catalog: 'pbc_ok', schema: 'sales', table: 'orders', name: 'pbc_ok_orders' })
    .expect(201);
  const clean = await s.api().post(`${O}/validate/pbc_ok_orders`).send({}).expect(200);
  expect(clean.body.status).toBe('passed');
  const events = await listDqEvents(s.h.store.db, { tableFqn: 'pbc_ok.sales.orders' });
  expect(events.filter((e) => ['contract.violation', 'sla_breach'].includes(e.type))).toEqual([]);
  expect(await listDqEvents(s.h.store.db, { type: 'sla_breach', tableFqn: 'pbc.sales.orders' })).toHaveLength(1);
}, 120_000);
