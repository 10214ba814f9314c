import os from 'node:os';
import path from 'node:path';
import type { Worker } from 'node:worker_threads';
import { sourceThread } from '../../platform/source-thread';
import { LogBuffers } from './log-buffers';
import type { LogFileSpec } from './logic/logs';
import type { LogThreadAnswer, LogThreadTask } from './log-thread';

/** At most this many threads build log files, one per core beyond none. */
const MAX_THREADS = 4;
/** File buffers beyond one per thread: one for the build queued next, one for the file being written. */
const EXTRA_BUFFERS = 2;

export interface BuiltLogFile {
  data: Buffer;
  service: string;
  sha256: string;
  /** Hands the file's buffer back for a later file once its bytes are no longer needed (call it exactly once). */
  release(): void;
}

/**
 * A process-wide pool of worker threads that build log files in parallel (lines not kept as rows). The threads are
 * started on first use and kept, unreferenced (they never hold the process open), so later calls pay no start-up.
 * Buffers go to the main thread and back by transfer, never copied, and are kept for later files (`LogBuffers`).
 */
export class LogThreads {
  private readonly workers: Worker[] = [];
  private readonly idle: Worker[] = [];
  private readonly waiting: Array<{ resolve: (w: Worker) => void; reject: (e: Error) => void }> = [];
  private readonly calls = new Map<number, { resolve: (a: LogThreadAnswer) => void; reject: (e: Error) => void }>();
  private readonly buffers: LogBuffers;
  private nextId = 0;
  private broken: Error | null = null;

  constructor(readonly size: number) {
    this.buffers = new LogBuffers(size + EXTRA_BUFFERS);
    const file = path.join(__dirname, `log-thread${path.extname(__filename)}`);
    for (let i = 0; i < size; i++) {
      const w = sourceThread(file);
      w.unref();
      w.on('message', (a: LogThreadAnswer) => this.answered(w, a));
      w.on('error', (e) => this.fail(e));
      w.on('exit', (code) => code !== 0 && this.fail(new Error(`a log thread exited with code ${code}`)));
      this.workers.push(w);
      this.idle.push(w);
    }
  }

  /** True once a thread failed: the pool takes no more work (the caller builds in its own thread). */
  get failed(): boolean {
    return this.broken !== null;
  }

  /** Builds one file on a free thread, in a kept buffer when there is one (waits while all are in use). */
  async build(spec: LogThreadTask['spec']): Promise<BuiltLogFile> {
    const reuse = await this.buffers.take();
    let answer: LogThreadAnswer;
    try {
      answer = await this.call({ spec, reuse }, reuse ? [reuse] : []);
    } catch (error) {
      // A thread that failed to start took nothing; one that died with the task may have had the buffer (gone).
      this.buffers.give(undefined);
      throw error;
    }
    if (!answer.ok) {
      this.buffers.give(undefined); // the buffer went to the thread with the task and stays there
      throw new Error(`building a log file failed in its thread: ${answer.error}`);
    }
    const bytes = answer.bytes!;
    return {
      data: Buffer.from(bytes, 0, answer.length),
      service: answer.service,
      sha256: answer.sha256,
      release: () => this.buffers.give(bytes),
    };
  }

  /**
   * Builds one file on a free thread straight into `file` (its folder exists), written under a temporary name and
   * renamed when whole; answers its size, service and sha256 (waits while every thread is busy).
   */
  async buildTo(
    spec: LogThreadTask['spec'],
    file: string,
  ): Promise<{ length: number; service: string; sha256: string }> {
    const answer = await this.call({ spec, path: file });
    if (!answer.ok) throw new Error(`writing a log file failed in its thread: ${answer.error}`);
    return { length: answer.length, service: answer.service, sha256: answer.sha256 };
  }

  private async call(task: Omit<LogThreadTask, 'id'>, transfer: ArrayBuffer[] = []): Promise<LogThreadAnswer> {
    const w = await this.worker();
    const id = this.nextId++;
    return new Promise<LogThreadAnswer>((resolve, reject) => {
      this.calls.set(id, { resolve, reject });
      w.postMessage({ ...task, id } satisfies LogThreadTask, transfer);
    });
  }

  private worker(): Promise<Worker> {
    if (this.broken) return Promise.reject(this.broken);
    const w = this.idle.pop();
    if (w) {
      w.ref(); // a thread with work holds the process until it answers
      return Promise.resolve(w);
    }
    return new Promise((resolve, reject) => this.waiting.push({ resolve, reject }));
  }

  private answered(w: Worker, a: LogThreadAnswer): void {
    const call = this.calls.get(a.id);
    this.calls.delete(a.id);
    const next = this.waiting.shift();
    if (next) next.resolve(w);
    else {
      w.unref();
      this.idle.push(w);
    }
    call?.resolve(a);
  }

  private fail(error: Error): void {
    this.broken ??= error;
    for (const call of this.calls.values()) call.reject(error);
    this.calls.clear();
    for (const next of this.waiting.splice(0)) next.reject(error);
    this.buffers.fail(error);
    for (const w of this.workers) void w.terminate();
    if (pool === this) pool = null;
  }
}

let pool: LogThreads | null = null;

/**
 * The shared pool, or null on a machine with one core (threads would only add hand-offs there) or when
 * `LAKEWARD_LOG_THREADS` is 0 or 1 (it caps the pool's size; default: one thread per core, at most 4).
 */
export function logThreads(): LogThreads | null {
  const cap = Number(process.env.LAKEWARD_LOG_THREADS ?? MAX_THREADS);
  const size = Math.min(Number.isFinite(cap) ? cap : MAX_THREADS, MAX_THREADS, os.availableParallelism());
  if (size < 2) return null;
  pool ??= new LogThreads(size);
  return pool;
}

/** The spec a thread gets: everything but the rows and the buffer (each thread keeps its own). */
export const threadSpec = (s: LogFileSpec): LogThreadTask['spec'] => ({
  type: s.type,
  seed: s.seed,
  asOf: s.asOf,
  daysBack: s.daysBack,
  linesPerFile: s.linesPerFile,
  index: s.index,
});
