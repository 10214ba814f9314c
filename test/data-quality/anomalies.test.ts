import request from 'supertest';
import type { Express } from 'express';
import { createApp } from '../../api/app';
import { detectAnomaly, nextAnomalyStatus } from '../../activities/data-quality/logic/anomaly';
import { recordObservations } from '../../activities/data-quality/metrics';
import { listAnomalies, listDqEvents } from '../../store/data-quality/ops';
import type { Store } from '../../store/db';
import { recentNotifications } from '../../store/notifications/repo';
import { testAppDeps } from '../api/deps';
import { createTestStore } from '../helpers/db';

const SETTINGS = { k: 3, minSamples: 14, baselineDays: 30 };
const DAY = 86_400_000;
const T0 = Date.parse('2026-10-01T06:00:00Z');
const at = (day: number) => new Date(T0 + day * DAY);

let store: Store;
let app: Express;
beforeAll(async () => {
  store = await createTestStore();
  app = createApp(testAppDeps({ store }));
});
afterAll(async () => store?.close());

/**
 * A synthetic daily history: row counts alternating 990 and 1010 (mean 1000, population σ exactly 10), one
 * observation a day for `days` days, recorded through the same path a DQ run uses.
 */
async function history(table: string, days: number) {
  for (let d = 0; d < days; d++)
    await recordObservations(
      store.db,
      table,
      [{ column: '', metric: 'row_count', value: d % 2 ? 1010 : 990 }],
      SETTINGS,
      `run-${d}`,
      at(d),
    );
}
const observe = (table: string, value: number, day = 30) =>
  recordObservations(store.db, table, [{ column: '', metric: 'row_count', value }], SETTINGS, 'run-new', at(day));

describe('detection (pure)', () => {
  const base = Array.from({ length: 30 }, (_, i) => (i % 2 ? 1010 : 990));
  test('4σ is critical, 3.6σ warning, 3.2σ info, 2σ and exactly 3σ nothing', () => {
    expect(detectAnomaly(1040, base, [], SETTINGS)).toMatchObject({
      anomalous: true,
      severity: 'critical',
      mean: 1000,
      stddev: 10,
      z: 4,
    });
    expect(detectAnomaly(964, base, [], SETTINGS)).toMatchObject({ anomalous: true, severity: 'warning' });
    expect(detectAnomaly(1032, base, [], SETTINGS)).toMatchObject({ anomalous: true, severity: 'info' });
    expect(detectAnomaly(1020, base, [], SETTINGS)).toMatchObject({ anomalous: false, severity: null });
    expect(detectAnomaly(1030, base, [], SETTINGS).anomalous).toBe(false);
    expect(detectAnomaly(1030, base, [], SETTINGS)).toMatchObject({
      expectedMin: expect.closeTo(970, 6),
      expectedMax: expect.closeTo(1030, 6),
    });
  });
  test('k and the minimum sample count come from the settings', () => {
    expect(detectAnomaly(1025, base, [], { ...SETTINGS, k: 2 }).anomalous).toBe(true);
    expect(detectAnomaly(5000, base.slice(0, 13), [], SETTINGS).anomalous).toBe(false);
    expect(detectAnomaly(5000, base.slice(0, 14), [], SETTINGS).anomalous).toBe(true);
  });
  test("transitions are exactly the spec's", () => {
    expect(nextAnomalyStatus('open', 'acknowledge')).toBe('acknowledged');
    expect(nextAnomalyStatus('open', 'resolve')).toBe('resolved');
    expect(nextAnomalyStatus('acknowledged', 'resolve')).toBe('resolved');
    expect(nextAnomalyStatus('open', 'false_positive')).toBe('false_positive');
    expect(nextAnomalyStatus('acknowledged', 'false_positive')).toBeNull();
    expect(nextAnomalyStatus('acknowledged', 'acknowledge')).toBeNull();
    expect(nextAnomalyStatus('resolved', 'resolve')).toBeNull();
    expect(nextAnomalyStatus('false_positive', 'acknowledge')).toBeNull();
  });
});

describe('with a synthetic 30-day history in the store', () => {
  test('a 4σ jump is flagged critical (an incident: event + notification); a 2σ move is not', async () => {
    await history('h.s.jump', 30);
    const [a] = await observe('h.s.jump', 1040);
    expect(a).toMatchObject({
      severity: 'critical',
      status: 'open',
      observedValue: 1040,
      baselineSamples: 30,
      baselineMean: 1000,
      baselineStddev: 10,
    });
    expect(await observe('h.s.jump', 1020, 31)).toEqual([]);
    const events = await listDqEvents(store.db, { type: 'anomaly_critical', tableFqn: 'h.s.jump' });
    expect(events).toHaveLength(1);
    expect(
      (await recentNotifications(store.db)).some((n) => n.type === 'dq_incident' && n.message.includes('h.s.jump')),
    ).toBe(true);
  });

  test('the baseline is the last 30 days: older observations do not count', async () => {
    // 20 days of a very different level 40–60 days ago, then 15 days of the normal history.
    for (let d = 0; d < 20; d++)
      await recordObservations(
        store.db,
        'h.s.window',
        [{ column: '', metric: 'row_count', value: 5000 }],
        SETTINGS,
        null,
        at(d - 60),
      );
    await history('h.s.window', 15);
    const [a] = await observe('h.s.window', 1040, 15);
    expect(a).toMatchObject({ severity: 'critical', baselineSamples: 15 });
  });

  test('nothing is flagged with 13 samples', async () => {
    await history('h.s.thirteen', 13);
    expect(await observe('h.s.thirteen', 100_000, 13)).toEqual([]);
  });

  test('a false positive stops the same value from being flagged again; illegal transitions get 409', async () => {
    await history('h.s.fp', 30);
    const [a] = await observe('h.s.fp', 1040);
    const listed = await request(app).get('/api/data-quality/anomalies?status=open&severity=critical').expect(200);
    expect(listed.body.map((x: { id: string }) => x.id)).toContain(a.anomalyId);
    const fp = await request(app).post(`/data-quality/anomalies/${a.anomalyId}/false-positive`).expect(200);
    expect(fp.body).toMatchObject({
      status: 'false_positive',
      expected_range: { min: expect.any(Number), max: expect.any(Number) },
    });
    expect(await observe('h.s.fp', 1040, 31)).toEqual([]);
    // a value beyond the false positive is still flagged
    expect(await observe('h.s.fp', 1100, 32)).toHaveLength(1);

    const ack = await request(app).post(`/data-quality/anomalies/${a.anomalyId}/acknowledge`).expect(409);
    expect(ack.body.error).toMatchObject({
      code: 'INVALID_TRANSITION',
      message: expect.stringMatching(/false_positive/),
    });
    await request(app).post(`/data-quality/anomalies/${a.anomalyId}/resolve`).expect(409);
    await request(app).post('/data-quality/anomalies/anom-nope/resolve').expect(404);
  });

  test('open → acknowledged → resolved; acknowledged cannot become a false positive', async () => {
    await history('h.s.flow', 30);
    const [a] = await observe('h.s.flow', 960);
    await request(app).post(`/api/data-quality/anomalies/${a.anomalyId}/acknowledge`).expect(200);
    await request(app).post(`/api/data-quality/anomalies/${a.anomalyId}/acknowledge`).expect(409);
    await request(app).post(`/api/data-quality/anomalies/${a.anomalyId}/false-positive`).expect(409);
    const r = await request(app).post(`/api/data-quality/anomalies/${a.anomalyId}/resolve`).expect(200);
    expect(r.body).toMatchObject({ status: 'resolved', status_changed_by: expect.any(String) });
    expect(
      (await listAnomalies(store.db, { tableFqn: 'h.s.flow', status: 'resolved' })).map((x) => x.anomalyId),
    ).toEqual([a.anomalyId]);
    await request(app).get('/data-quality/anomalies?status=bogus').expect(400);
  });
});
