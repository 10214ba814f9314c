import { TokenBucket } from '../../activities/clone/token-bucket';

describe('max_rps token bucket', () => {
  test('spaces requests at the configured rate across concurrent callers', async () => {
    const bucket = new TokenBucket(20);
    const t0 = Date.now();
    await Promise.all(Array.from({ length: 6 }, () => bucket.take()));
    // The first token is there at once, the other five arrive 50 ms apart.
    expect(Date.now() - t0).toBeGreaterThanOrEqual(240);
  });

  test('0 means unlimited: 100 takes are granted without waiting for any timer', async () => {
    const bucket = new TokenBucket(0);
    const granted = Promise.all(Array.from({ length: 100 }, () => bucket.take())).then(() => 'granted');
    // setImmediate runs after every pending promise callback: a take that waited on a timer would lose this race.
    const timerTurn = new Promise((resolve) => setImmediate(() => resolve('a timer turn came first')));
    expect(await Promise.race([granted, timerTurn])).toBe('granted');
  });
});
