import { eventually } from './eventually';

test('eventually returns the first truthy value once the condition holds', async () => {
  let calls = 0;
  const value = await eventually(() => (++calls >= 3 ? { calls } : null), { what: 'three calls', intervalMs: 5 });
  expect(value).toEqual({ calls: 3 });
});

test('a timeout names what was awaited and the last value seen', async () => {
  let n = 0;
  await expect(
    eventually(() => (++n > 1000 ? n : 0), { what: 'the job to finish', timeoutMs: 60, intervalMs: 10 }),
  ).rejects.toThrow(/waiting for the job to finish; last value: 0/);
});

test('a timeout reports the last error thrown by the condition', async () => {
  await expect(
    eventually(
      () => {
        throw new Error('status is running');
      },
      { what: 'status completed', timeoutMs: 50, intervalMs: 10 },
    ),
  ).rejects.toThrow(
    /timed out after \d+ ms \(\d+ attempts\) waiting for status completed; last error: status is running/,
  );
});
