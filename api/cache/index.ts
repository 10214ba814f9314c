import type { AppDeps } from '../deps';
import { JobEndWatcher } from './job-end-watcher';
import { MetadataCache } from './metadata-cache';

export { MetadataCache } from './metadata-cache';

const WATCH_INTERVAL_MS = 2_000;
const perApp = new WeakMap<AppDeps, { cache: MetadataCache; watcher: JobEndWatcher }>();

/**
 * The metadata cache of one app (one per AppDeps, shared by every router that lists workspace metadata),
 * with its job-end watcher running.
 */
export function metadataCacheFor(deps: AppDeps): { cache: MetadataCache; watcher: JobEndWatcher } {
  let entry = perApp.get(deps);
  if (!entry) {
    const cache = new MetadataCache(deps.config.cache.ttl_seconds);
    entry = { cache, watcher: new JobEndWatcher(deps.store, cache).start(WATCH_INTERVAL_MS) };
    perApp.set(deps, entry);
  }
  return entry;
}
