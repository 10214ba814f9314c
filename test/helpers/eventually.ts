import { inspect } from 'node:util';

export interface EventuallyOptions {
  /** What the test waits for, in words: it names the failure ("timed out after 20000 ms waiting for <what>"). */
  what: string;
  timeoutMs?: number;
  intervalMs?: number;
}

/**
 * Polls `fn` until it returns a truthy value (returned) without throwing. Real servers get there eventually;
 * no fixed sleeps. On timeout it throws an error naming what it waited for and the last value or error seen,
 * instead of a bare jest timeout. `fn` may use `expect(...)`: a failing expectation is just "not yet".
 */
export async function eventually<T>(
  fn: () => T | Promise<T>,
  { what, timeoutMs = 20_000, intervalMs = 100 }: EventuallyOptions,
): Promise<Exclude<T, false | null | undefined | 0 | ''>> {
  const started = Date.now();
  let last: { value: unknown } | { error: unknown } = { value: undefined };
  let attempts = 0;
  for (;;) {
    attempts++;
    try {
      const value = await fn();
      if (value) return value as Exclude<T, false | null | undefined | 0 | ''>;
      last = { value };
    } catch (error) {
      last = { error };
    }
    const elapsed = Date.now() - started;
    if (elapsed >= timeoutMs) {
      const seen =
        'error' in last
          ? `last error: ${last.error instanceof Error ? last.error.message : inspect(last.error)}`
          : `last value: ${inspect(last.value, { depth: 4, breakLength: Infinity })}`;
      throw new Error(`timed out after ${elapsed} ms (${attempts} attempts) waiting for ${what}; ${seen}`);
    }
    await new Promise((r) => setTimeout(r, Math.min(intervalMs, Math.max(0, timeoutMs - elapsed))));
  }
}
