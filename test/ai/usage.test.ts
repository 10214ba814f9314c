import { decideReservation, checkBudget, DEFAULT_AI_TOKEN_BUDGET } from '../../activities/ai/logic/budget';
import type { Store } from '../../store/db';
import { createUsage, getUsage, recordCall, reserveTokens } from '../../store/ai/usage';
import { createTestStore, storeBackends } from '../helpers/db';

describe('budget rule', () => {
  test('a call needs its full max_tokens left; 0 disables AI; budgets are bounded', () => {
    expect(decideReservation(2048, 1024, 1024)).toEqual({ ok: true, remaining: 0 });
    expect(decideReservation(2048, 1025, 1024)).toEqual({ ok: false, reason: 'budget' });
    expect(decideReservation(0, 0, 1)).toEqual({ ok: false, reason: 'disabled' });
    expect(checkBudget(undefined)).toEqual({ ok: true, budget: DEFAULT_AI_TOKEN_BUDGET });
    expect(checkBudget(10_000_001)).toMatchObject({ ok: false });
    expect(checkBudget(-1)).toMatchObject({ ok: false });
  });
});

describe.each(storeBackends())('ai_usage on %s', (backend) => {
  let store: Store;
  beforeAll(async () => {
    store = await createTestStore(backend);
  });
  afterAll(async () => {
    await store?.close();
  });

  test('concurrent reservations never spend more than the budget, and each charges its full max_tokens', async () => {
    await createUsage(store.db, { id: 'u-race', route: 'generate documents', budget: 5000, jobId: 'job-1' });
    const results = await Promise.all(Array.from({ length: 12 }, () => reserveTokens(store.db, 'u-race', 1000)));
    expect(results.filter((r) => r.granted)).toHaveLength(5);
    expect(results.filter((r) => !r.granted).every((r) => r.reason === 'budget')).toBe(true);
    const row = await getUsage(store.db, 'u-race');
    expect(row).toMatchObject({ calls: 5, tokensCharged: 5000, budgetDenials: 7, jobId: 'job-1' });
  });

  test('a failed call stays charged and is counted; budget 0 grants nothing', async () => {
    await createUsage(store.db, { id: 'u-fail', route: 'POST /api/ai/summarize', budget: 3000 });
    const first = await reserveTokens(store.db, 'u-fail', 1024);
    expect(first).toEqual({ granted: true, tokensCharged: 1024, remaining: 1976 });
    await recordCall(store.db, 'u-fail', { backend: 'serving_endpoint', model: 'llm', ok: false });
    expect(await getUsage(store.db, 'u-fail')).toMatchObject({
      backend: 'serving_endpoint',
      model: 'llm',
      calls: 1,
      failedCalls: 1,
      tokensCharged: 1024,
    });

    await createUsage(store.db, { id: 'u-off', route: 'POST /api/ai/summarize', budget: 0 });
    expect(await reserveTokens(store.db, 'u-off', 1)).toMatchObject({ granted: false, reason: 'disabled' });
    expect(await getUsage(store.db, 'u-off')).toMatchObject({ calls: 0, tokensCharged: 0 });
  });
});
