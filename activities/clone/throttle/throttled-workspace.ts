import type { Workspace } from '../../../platform/port';
import type { RateLimiter } from './rate-limiter';

/** Wraps a workspace so that every platform call first takes a slot from the limiter. */
export function throttledWorkspace(ws: Workspace, limiter: RateLimiter): Workspace {
  return new Proxy(ws, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof value !== 'function' || prop === 'close') return value;
      return async (...args: unknown[]) => {
        await limiter.acquire();
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}
