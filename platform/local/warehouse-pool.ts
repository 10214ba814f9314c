import { AsyncLocalStorage } from 'node:async_hooks';
import { DuckDBInstance } from '@duckdb/node-api';
import { runInDuckScope, type DuckScope } from './duck';

/** How a warehouse's pool is built: one DuckDB instance per cluster, each with these settings. */
export interface PoolSettings {
  clusters: number;
  threads: number;
  memoryLimitMb: number;
}

/** One busy span of a cluster: what the usage ledger records for the activity that held it. */
export interface PoolUse {
  warehouseId: string;
  startedAt: number;
  endedAt: number;
}

interface Held {
  pool: EnginePool;
  instance: DuckDBInstance;
}

/** The slot a call already holds: nested `withDuck` calls inside it reuse it instead of queueing again. */
const held = new AsyncLocalStorage<Held>();
/** Receives every finished use (the ledger's recorder subscribes; nothing is recorded without it). */
const useListeners = new AsyncLocalStorage<(use: PoolUse) => void>();

/**
 * A local SQL warehouse: `clusters` DuckDB instances, one query (one port call) per cluster at a time, the rest
 * waiting in arrival order, as a Databricks warehouse queues what its clusters cannot take.
 */
export class EnginePool implements DuckScope {
  private readonly instances: (Promise<DuckDBInstance> | undefined)[];
  private readonly free: number[];
  private readonly waiting: ((index: number) => void)[] = [];
  private closed = false;
  /** Epoch ms of the last release (auto-stop counts idle time from here). */
  lastUsedAt = Date.now();

  constructor(
    readonly warehouseId: string,
    readonly settings: PoolSettings,
  ) {
    this.instances = Array.from({ length: settings.clusters }, () => undefined);
    this.free = Array.from({ length: settings.clusters }, (_, i) => i);
  }

  /** Calls holding a cluster now. */
  get running(): number {
    return this.settings.clusters - this.free.length;
  }
  /** Calls waiting for a cluster. */
  get queued(): number {
    return this.waiting.length;
  }

  private instance(i: number): Promise<DuckDBInstance> {
    this.instances[i] ??= DuckDBInstance.create(':memory:', {
      threads: String(this.settings.threads),
      memory_limit: `${this.settings.memoryLimitMb}MB`,
    });
    return this.instances[i];
  }

  private acquire(): Promise<number> {
    const i = this.free.shift();
    if (i !== undefined) return Promise.resolve(i);
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private release(i: number): void {
    this.lastUsedAt = Date.now();
    const next = this.waiting.shift();
    if (next) next(i);
    else this.free.push(i);
    if (this.closed && this.running === 0) this.dispose();
  }

  /** Runs `fn` on one cluster (queueing while all are busy); a call already on this pool keeps its cluster. */
  async withInstance<T>(fn: (instance: DuckDBInstance) => Promise<T>): Promise<T> {
    const mine = held.getStore();
    if (mine?.pool === this) return fn(mine.instance);
    return this.run(fn);
  }

  /** Holds one cluster for the whole of `fn` (every `withDuck` inside runs on it) and reports the span. */
  async run<T>(fn: (instance: DuckDBInstance) => Promise<T>): Promise<T> {
    const mine = held.getStore();
    if (mine?.pool === this) return fn(mine.instance);
    const i = await this.acquire();
    const startedAt = Date.now();
    try {
      const instance = await this.instance(i);
      return await held.run({ pool: this, instance }, () => runInDuckScope(this, () => fn(instance)));
    } finally {
      this.release(i);
      useListeners.getStore()?.({ warehouseId: this.warehouseId, startedAt, endedAt: Date.now() });
    }
  }

  /** Drops the clusters once nothing holds them (a stopped warehouse frees its memory). */
  close(): void {
    this.closed = true;
    if (this.running === 0) this.dispose();
  }

  private dispose(): void {
    const instances = this.instances.splice(0);
    void Promise.all(instances.map((p) => p?.then((d) => d.closeSync()).catch(() => undefined)));
  }
}

/** Runs `fn` and hands every pool use inside it to `listener` (the ledger's per-activity recorder). */
export function withPoolUseListener<T>(listener: (use: PoolUse) => void, fn: () => Promise<T>): Promise<T> {
  return useListeners.run(listener, fn);
}

/** The process's running pools, by warehouse id. */
const pools = new Map<string, EnginePool>();

/** The pool of a running warehouse in this process, built when first asked for. */
export function openPool(warehouseId: string, settings: PoolSettings): EnginePool {
  const have = pools.get(warehouseId);
  if (have && sameSettings(have.settings, settings)) return have;
  have?.close();
  const pool = new EnginePool(warehouseId, settings);
  pools.set(warehouseId, pool);
  return pool;
}

export function existingPool(warehouseId: string): EnginePool | undefined {
  return pools.get(warehouseId);
}

/** A stopped warehouse's pool goes away; calls still holding a cluster finish on it. */
export function closePool(warehouseId: string): void {
  pools.get(warehouseId)?.close();
  pools.delete(warehouseId);
}

function sameSettings(a: PoolSettings, b: PoolSettings): boolean {
  return a.clusters === b.clusters && a.threads === b.threads && a.memoryLimitMb === b.memoryLimitMb;
}
