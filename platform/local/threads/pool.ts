import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { TransientError } from '../../errors';
import type { LocalWorkspaceOptions } from '../workspace-context';
import { errorFromWire, type ThreadAnswer, type ThreadCall } from './wire';

interface Slot {
  worker: Worker;
  pending: Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>;
  /** Calls made in this turn of the event loop, posted together at its end (one message, not one each). */
  outbox: ThreadCall[];
}

/**
 * Threads that run local lakehouse port calls (`onLocalThreads`), owned by a worker process: started with it,
 * closed with it. Calls about one object (`affinity`) go to one thread, in the order they were made, so two
 * concurrent writes of one table's metadata never contend across threads. A thread that dies fails its
 * pending calls with a TransientError (the activity's retry runs them again) and is replaced by the next call.
 */
export class LocalThreadPool {
  private readonly slots: (Slot | null)[];
  private nextId = 0;
  private closed = false;

  constructor(readonly size: number) {
    if (!Number.isInteger(size) || size < 1)
      throw new RangeError(`thread count must be a positive integer, got ${size}`);
    this.slots = Array.from({ length: size }, () => null);
    // Started now, so their module loading overlaps the worker's start rather than the first job.
    for (let i = 0; i < size; i++) this.slots[i] = this.start(i);
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Runs `method` of the workspace `opts` opens, on the thread `affinity` picks. */
  call(opts: LocalWorkspaceOptions, method: string, args: unknown[], affinity: string): Promise<unknown> {
    if (this.closed) return Promise.reject(new TransientError('the local lakehouse threads were closed'));
    const i = hash(affinity) % this.size;
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
    const file = path.join(__dirname, `thread${path.extname(__filename)}`);
    // From TypeScript sources (tsx, jest) the thread first registers tsx's require hook; a compiled build runs the .js.
    const fromSource = path.extname(__filename) === '.ts';
    const entry = fromSource
      ? `require(${JSON.stringify(require.resolve('tsx/cjs'))}); require(${JSON.stringify(file)});`
      : file;
    const worker = new Worker(entry, { eval: fromSource, execArgv: [], name: `lakeward-local-${i}` });
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
