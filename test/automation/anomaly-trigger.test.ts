import { recordObservations } from '../../activities/data-quality/metrics';
import { automationStack, historyOf, type AutomationStack } from './stack';

/** The anomaly trigger from its real producer: a DQ metric observation the anomaly detector flags critical. */
let s: AutomationStack;
beforeAll(async () => {
  s = await automationStack('anomaly-trigger');
}, 120_000);
afterAll(async () => s?.stop());

const SETTINGS = { k: 3, minSamples: 14, baselineDays: 30 };
const DAY = 86_400_000;

test('a critical anomaly in a table metric fires an anomaly playbook whose action tags the table', async () => {
  const created = await s
    .api()
    .post('/api/playbooks')
    .send({
      name: 'row count jump',
      trigger_type: 'anomaly',
      trigger_config: { tables: ['prod.sales.*'] },
      actions: [{ type: 'tag_table', params: { table_fqn: '{{event.table_fqn}}', tags: { dq_review: 'anomaly' } } }],
    })
    .expect(201);
  const t0 = Date.now() - 31 * DAY;
  // A daily history (990 / 1010: mean 1000, σ 10), recorded through the path a DQ run uses; nothing fires.
  for (let d = 0; d < 30; d++)
    await recordObservations(
      s.h.store.db,
      'prod.sales.orders',
      [{ column: '', metric: 'row_count', value: d % 2 ? 1010 : 990 }],
      SETTINGS,
      `run-${d}`,
      new Date(t0 + d * DAY),
    );
  const [anomaly] = await recordObservations(
    s.h.store.db,
    'prod.sales.orders',
    [{ column: '', metric: 'row_count', value: 1040 }],
    SETTINGS,
    'run-30',
    new Date(),
  );
  expect(anomaly.severity).toBe('critical');
  const runs = await historyOf(s, created.body.playbook_id, 1, 60_000);
  expect(runs).toHaveLength(1);
  expect(runs[0]).toMatchObject({
    status: 'succeeded',
    event: { table_fqn: 'prod.sales.orders', anomaly_id: anomaly.anomalyId },
  });
  const tags = await s.h.open(s.root).getTags({ type: 'TABLE', catalog: 'prod', schema: 'sales', name: 'orders' });
  expect(tags.dq_review).toBe('anomaly');
}, 120_000);
