import type { AppDeps } from '../deps';

/**
 * Reads shared by the requests that ask for the same thing at the same moment (request coalescing): a request
 * that arrives while an identical read is in flight gets that read's answer instead of starting its own. Nothing
 * is kept once a read has answered, so an answer is never older than the read in flight when the request came
 * (one store round trip, about a millisecond); a job polled by many clients costs the store one read per round
 * trip instead of one per poll. Answers are shared objects: callers must not change them.
 *
 * `invalidate()` (after a write this process made) makes later requests start their own read, so a client that
 * changed a job (a cancel, a submit) and then reads it sees its change.
 */
export interface SharedReads {
  read<T>(key: string, fn: () => Promise<T>): Promise<T>;
  invalidate(): void;
}

export function sharedReads(): SharedReads {
  const inFlight = new Map<string, Promise<unknown>>();
  return {
    read<T>(key: string, fn: () => Promise<T>): Promise<T> {
      const running = inFlight.get(key);
      if (running) return running as Promise<T>;
      const read: Promise<T> = fn().finally(() => {
        if (inFlight.get(key) === read) inFlight.delete(key);
      });
      inFlight.set(key, read);
      return read;
    },
    invalidate() {
      inFlight.clear();
    },
  };
}

const perApp = new WeakMap<AppDeps, SharedReads>();

/** The job reads this app shares (job records and job lists); writes to jobs in this process invalidate them. */
export function sharedJobReads(deps: AppDeps): SharedReads {
  let reads = perApp.get(deps);
  if (!reads) perApp.set(deps, (reads = sharedReads()));
  return reads;
}
