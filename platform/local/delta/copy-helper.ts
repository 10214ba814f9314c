import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

/**
 * The helper's own code: a bare Node process that runs `cp` for each request line and answers with one line.
 * It starts `cp` from a process of a few tens of MB: forking the worker itself, which holds the store, DuckDB
 * and the Temporal runtime (often gigabytes), cost about 50 ms of CPU per copy at 3 GB resident.
 * When its parent dies (stdin closes) it kills its running `cp`s at once: a killed worker's copies stop writing,
 * and their temp files go stale for the retry to remove (temp-copies.ts).
 */
const HELPER_SOURCE = `
const { execFile } = require('node:child_process');
const running = new Set();
const rl = require('node:readline').createInterface({ input: process.stdin });
rl.on('line', (line) => {
  const { id, src, dest } = JSON.parse(line);
  const cp = execFile('cp', ['--reflink=auto', '--', src, dest], (err, _out, stderr) => {
    running.delete(cp);
    const reply = err
      ? { id, ok: false, missing: err.code === 'ENOENT', error: String(stderr || err.message).trim() }
      : { id, ok: true };
    process.stdout.write(JSON.stringify(reply) + '\\n');
  });
  running.add(cp);
});
rl.on('close', () => {
  for (const cp of running) cp.kill('SIGKILL');
  process.exit(0);
});
`;

interface Waiting {
  resolve(): void;
  reject(err: Error): void;
}

/** Raised when `cp` itself cannot be started (not installed): the caller copies in-process instead. */
export class NoSystemCopyError extends Error {}

/**
 * One long-lived helper per process, started on first use and again after it dies. While copies are in
 * flight it keeps the process alive; when idle it does not (it ends with its parent: stdin closes).
 */
export class CopyHelper {
  private child: ChildProcess | null = null;
  private waiting = new Map<number, Waiting>();
  private next = 1;

  copy(src: string, dest: string): Promise<void> {
    const child = this.child ?? this.start();
    const id = this.next++;
    return new Promise<void>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.hold(child, true);
      child.stdin!.write(JSON.stringify({ id, src, dest }) + '\n');
    });
  }

  private start(): ChildProcess {
    const child = spawn(process.execPath, ['-e', HELPER_SOURCE], { stdio: ['pipe', 'pipe', 'ignore'] });
    this.child = child;
    createInterface({ input: child.stdout! }).on('line', (line) => this.answer(line));
    const fail = (err: Error) => {
      if (this.child === child) this.child = null;
      for (const w of this.waiting.values()) w.reject(err);
      this.waiting.clear();
    };
    child.on('error', fail);
    child.on('exit', (code, signal) => fail(new Error(`copy helper exited (${signal ?? code})`)));
    child.stdin!.on('error', () => undefined); // a dead helper is reported by 'exit'
    this.hold(child, false);
    return child;
  }

  private answer(line: string): void {
    let r: { id: number; ok: boolean; missing?: boolean; error?: string };
    try {
      r = JSON.parse(line) as typeof r;
    } catch {
      return; // not an answer (the helper writes nothing else; ignore rather than crash the worker)
    }
    const w = this.waiting.get(r.id);
    if (!w) return;
    this.waiting.delete(r.id);
    if (r.ok) w.resolve();
    else w.reject(r.missing ? new NoSystemCopyError('cp is not available') : new Error(`cp: ${r.error}`));
    if (this.waiting.size === 0 && this.child) this.hold(this.child, false);
  }

  /** Keeps the process alive for the helper's answers while copies are in flight, and only then. */
  private hold(child: ChildProcess, on: boolean): void {
    for (const h of [child, child.stdout, child.stdin] as unknown as { ref?(): void; unref?(): void }[]) {
      if (on) h?.ref?.();
      else h?.unref?.();
    }
  }
}
