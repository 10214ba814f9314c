/**
 * The file buffers of the log threads: at most `cap` of them exist at once, each one handed to a build, then to the
 * write of that file, then back here for a later build. A buffer is allocated (by the thread that builds in it) only
 * while fewer than `cap` exist, so after the first files every build reuses memory whose pages are already mapped:
 * a fresh 15–45 MB buffer costs thousands of page faults, about as much CPU as writing the file. A build that finds
 * every buffer in use waits for one (in the order builds asked); buffers idle for `idleMs` are dropped so a
 * long-running process does not keep them.
 */
export class LogBuffers {
  private readonly spare: ArrayBuffer[] = [];
  private readonly waiting: Array<{ grant: (b: ArrayBuffer | undefined) => void; fail: (e: Error) => void }> = [];
  /** Buffers in use or spare (a granted slot without a buffer yet counts: its thread allocates it). */
  private owned = 0;
  private trim: NodeJS.Timeout | null = null;
  private broken: Error | null = null;

  constructor(
    readonly cap: number,
    private readonly idleMs = 30_000,
  ) {}

  /** A spare buffer, or undefined when the build may allocate one; waits while `cap` are in use. */
  take(): Promise<ArrayBuffer | undefined> {
    if (this.broken) return Promise.reject(this.broken);
    if (this.trim) clearTimeout(this.trim);
    this.trim = null;
    if (this.waiting.length === 0) {
      const b = this.spare.pop();
      if (b) return Promise.resolve(b);
      if (this.owned < this.cap) {
        this.owned++;
        return Promise.resolve(undefined);
      }
    }
    return new Promise((grant, fail) => this.waiting.push({ grant, fail }));
  }

  /** Gives a buffer back (its bytes no longer needed); `undefined` when the build kept none (it failed). */
  give(b: ArrayBuffer | undefined): void {
    const next = this.waiting.shift();
    if (next) return next.grant(b);
    if (b) this.spare.push(b);
    else this.owned--;
    if (this.spare.length === this.owned && this.owned > 0) {
      this.trim = setTimeout(() => this.drop(), this.idleMs);
      this.trim.unref();
    }
  }

  /** Rejects every waiting build, and every later one. */
  fail(error: Error): void {
    this.broken ??= error;
    for (const w of this.waiting.splice(0)) w.fail(error);
    this.drop();
  }

  private drop(): void {
    this.owned -= this.spare.length;
    this.spare.length = 0;
    this.trim = null;
  }
}
