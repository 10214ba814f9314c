import { and, asc, gt, isNotNull } from 'drizzle-orm';
import type { Store } from '../../store/db';
import { jobs } from '../../store/schema';
import type { MetadataCache } from './metadata-cache';

/**
 * Invalidates the metadata cache when a job ends. Jobs end in a worker process, so the API learns of it from
 * the jobs row's completed_at (set by the job's end recording) and drops the source and destination catalogs.
 */
export class JobEndWatcher {
  private since: Date;
  private running: Promise<number> | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly store: Store,
    private readonly cache: MetadataCache,
    start: Date = new Date(),
  ) {
    this.since = start;
  }

  /** Polls every `intervalMs` in the background (the timer never keeps the process alive). */
  start(intervalMs: number): this {
    this.timer ??= setInterval(() => void this.sync().catch(() => undefined), intervalMs);
    this.timer.unref();
    return this;
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Applies the ends recorded since the last sync; returns how many cache entries were dropped. */
  sync(): Promise<number> {
    this.running ??= this.apply().finally(() => (this.running = null));
    return this.running;
  }

  private async apply(): Promise<number> {
    const ended = await this.store.db
      .select({ source: jobs.sourceCatalog, destination: jobs.destinationCatalog, completedAt: jobs.completedAt })
      .from(jobs)
      .where(and(isNotNull(jobs.completedAt), gt(jobs.completedAt, this.since)))
      .orderBy(asc(jobs.completedAt))
      .limit(1000);
    let removed = 0;
    for (const job of ended) {
      for (const catalog of [job.source, job.destination])
        if (catalog) removed += this.cache.invalidateCatalog(catalog);
      this.since = job.completedAt!;
    }
    return removed;
  }
}
