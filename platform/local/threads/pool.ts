import path from 'node:path';
import type { Worker } from 'node:worker_threads';
import { TransientError } from '../../errors';
import { sourceThread } from '../../source-thread';
import type { LocalWorkspaceOptions } from '../workspace-context';
import { errorFromWire, type ThreadAnswer, type ThreadCall } from './wire';

interface Slot {
  worker: Worker;
  pending: Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>;
  /** Calls made in this turn of the event loop, posted together at its end (one message, not one each). */
  outbox: ThreadCall[];
}

/** Calls per second of the whole process above which calls go to the threads (see LocalThreadPool). */
export const OFFLOAD_CALLS_PER_SECOND = 2000;
/** How often the call rate is looked at. */
const WINDOW_MS = 50;

export interface LocalThreadPoolOptions {
  /** Below this many calls per second the caller's thread runs them (default OFFLOAD_CALLS_PER_SECOND; 0: all on the threads). */
  offloadCallsPerSecond?: number;
}

/**
 * Threads that run local lakehouse port calls (`onLocalThreads`), owned by a worker process: started with it,
 * closed with it. A call costs a round trip to a thread (and, while copy processes keep the cores busy, a wait
 * for the thread to be scheduled), so calls go to the threads only while the process makes many of them
 * (a shallow clone of many tables: thousands per second, where they held up the main thread); a deep clone's
 * or a one-table job's few calls run on the caller's thread as before. Calls about one object (`affinity`)
 * keep their order: while some are in flight, the next one goes the same way, and on the threads they all go
 * to one thread (by a hash of the object's name), in order, so two concurrent writes of one table's metadata
 * never contend across threads. A thread that dies fails its pending calls with a TransientError (the
 * activity's retry runs them again) and is replaced by the next call.
 */
export class LocalThreadPool {
  private readonly slots: (Slot | null)[];
  /** Calls in flight per object, and whether they run on the threads. */
  private readonly inFlight = new Map<string, { onThreads: boolean; count: number }>();
  private readonly rate: number;
  private nextId = 0;
  private closed = false;
  private windowStart = performance.now();
  private windowCalls = 0;
  private offloading: boolean;
  /** Calls run on the threads and on the caller's thread so far. */
  readonly counts = { threads: 0, inline: 0 };

  constructor(
    readonly size: number,
    opts: LocalThreadPoolOptions = {},
  ) {
    if (!Number.isInteger(size) || size < 1)
      throw new RangeError(`thread count must be a positive integer, got ${size}`);
    this.rate = opts.offloadCallsPerSecond ?? OFFLOAD_CALLS_PER_SECOND;
    this.offloading = this.rate <= 0;
    this.slots = Array.from({ length: size }, () => null);
    // Started now, so their module loading overlaps the worker's start rather than the first job.
    for (let i = 0; i < size; i++) this.slots[i] = this.start(i);
  }

  /**
   * Runs `method` of the workspace `opts` opens: on the thread `affinity` picks, or through `inline` (the same
   * call on the caller's thread) while calls are few, or once the pool is closed.
   */
  run(
    opts: LocalWorkspaceOptions,
    method: string,
    args: unknown[],
    affinity: string,
    inline: () => Promise<unknown>,
  ): Promise<unknown> {
    if (this.closed) return inline();
    this.noteCall();
    // While calls about this object are in flight, the next one goes their way (its order kept).
    let flight = this.inFlight.get(affinity);
    if (!flight) this.inFlight.set(affinity, (flight = { onThreads: this.offloading, count: 0 }));
    flight.count++;
    const done = () => {
      if (--flight.count === 0) this.inFlight.delete(affinity);
    };
    let p: Promise<unknown>;
    if (flight.onThreads) {
      this.counts.threads++;
      p = this.call(hash(affinity) % this.size, opts, method, args);
    } else {
      this.counts.inline++;
      try {
        p = inline();
      } catch (err) {
        p = Promise.reject(err as Error);
      }
    }
    return p.finally(done);
  }

  /** Counts the call; every WINDOW_MS the rate of the window just ended decides where the next calls run. */
  private noteCall(): void {
    if (this.rate > 0) {
      const now = performance.now();
      const span = now - this.windowStart;
      if (span >= WINDOW_MS) {
        this.offloading = (this.windowCalls * 1000) / span >= this.rate;
        this.windowStart = now;
        this.windowCalls = 0;
      }
    }
    this.windowCalls++;
  }

  private call(i: number, opts: LocalWorkspaceOptions, method: string, args: unknown[]): Promise<unknown> {
    const slot = (this.slots[i] ??= this.start(i));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      slot.pending.set(id, { resolve, reject });
      slot.outbox.push({ id, opts: { root: opts.root, user: opts.user, groups: opts.groups }, method, args });
      if (slot.outbox.length === 1) queueMicrotask(() => this.post(slot));
    });
  }

  private post(slot: Slot): void {
    const calls = slot.outbox.splice(0);
    try {
      slot.worker.postMessage(calls);
    } catch (err) {
      // Arguments that cannot be cloned: those calls fail, the thread never saw them.
      for (const c of calls) {
        const waiting = slot.pending.get(c.id);
        slot.pending.delete(c.id);
        waiting?.reject(err as Error);
      }
    }
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const slots = this.slots.splice(0).filter((s): s is Slot => s !== null);
    for (const s of slots) this.fail(s, 'the local lakehouse threads were closed');
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }

  private start(i: number): Slot {
    const worker = sourceThread(path.join(__dirname, `thread${path.extname(__filename)}`), {
      name: `lakeward-local-${i}`,
    });
    worker.unref();
    const slot: Slot = { worker, pending: new Map(), outbox: [] };
    worker.on('message', (answers: ThreadAnswer[]) => {
      for (const a of answers) {
        const waiting = slot.pending.get(a.id);
        if (!waiting) continue;
        slot.pending.delete(a.id);
        if (a.ok) waiting.resolve(a.value);
        else waiting.reject(errorFromWire(a.error));
      }
    });
    const gone = (why: string) => {
      if (this.slots[i] === slot) this.slots[i] = null;
      this.fail(slot, why);
    };
    worker.on('error', (e) => gone(`a local lakehouse thread failed: ${e.message}`));
    worker.on('exit', (code) => gone(`a local lakehouse thread exited with code ${code}`));
    return slot;
  }

  private fail(slot: Slot, why: string): void {
    const waiting = [...slot.pending.values()];
    slot.pending.clear();
    for (const w of waiting) w.reject(new TransientError(why));
  }
}

/** FNV-1a: a stable, even spread of object names over threads. */
function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}
