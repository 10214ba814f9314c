import { recordCacheLookup } from '../../platform/observability/metrics';

/**
 * The metadata cache: workspace listings (catalogs, schemas, tables, descriptions) kept for `ttl_seconds`
 * (config cache.ttl_seconds, default 300) so pickers and previews do not hit the workspace on every call.
 * Entries are tagged with their catalog, so a finished clone can drop what it may have changed.
 */
interface Entry {
  value: unknown;
  catalog: string | null;
  expiresAt: number;
}

export interface CacheStats {
  hits: number;
  misses: number;
  size: number;
  ttl_seconds: number;
}

export class MetadataCache {
  private readonly entries = new Map<string, Entry>();
  private hits = 0;
  private misses = 0;

  constructor(
    readonly ttlSeconds: number,
    private readonly now: () => number = Date.now,
  ) {}

  get<T>(key: string): T | undefined {
    const entry = this.entries.get(key);
    if (entry && entry.expiresAt > this.now()) {
      this.hits++;
      recordCacheLookup('hit');
      return entry.value as T;
    }
    if (entry) this.entries.delete(key);
    this.misses++;
    recordCacheLookup('miss');
    return undefined;
  }

  /** `catalog` tags the entry for `invalidateCatalog`; a TTL of 0 disables caching. */
  set(key: string, value: unknown, catalog: string | null = null): void {
    if (this.ttlSeconds <= 0) return;
    this.entries.set(key, {
      value,
      catalog: catalog?.toLowerCase() ?? null,
      expiresAt: this.now() + this.ttlSeconds * 1000,
    });
  }

  async getOrLoad<T>(key: string, catalog: string | null, load: () => Promise<T>): Promise<T> {
    const cached = this.get<T>(key);
    if (cached !== undefined) return cached;
    const value = await load();
    this.set(key, value, catalog);
    return value;
  }

  /** Drops every entry of `catalog` (case-insensitive); returns how many. */
  invalidateCatalog(catalog: string): number {
    const wanted = catalog.toLowerCase();
    let removed = 0;
    for (const [key, entry] of this.entries) {
      if (entry.catalog === wanted) {
        this.entries.delete(key);
        removed++;
      }
    }
    return removed;
  }

  clear(): void {
    this.entries.clear();
  }

  stats(): CacheStats {
    const now = this.now();
    for (const [key, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(key);
    return { hits: this.hits, misses: this.misses, size: this.entries.size, ttl_seconds: this.ttlSeconds };
  }
}
