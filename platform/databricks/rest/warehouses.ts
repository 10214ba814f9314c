import { TransientError } from '../../errors';
import type { RestClient } from './http';
import type { Warehouse } from './workspace-api';

const enc = encodeURIComponent;

/** The fields Lakeward sends to create or edit a warehouse (Databricks' names). */
export interface WarehouseRequest {
  name: string;
  cluster_size: string;
  min_num_clusters: number;
  max_num_clusters: number;
  auto_stop_mins: number;
  warehouse_type: string;
  enable_serverless_compute: boolean;
  enable_photon: boolean;
  channel: { name: string };
  tags: { custom_tags: { key: string; value: string }[] };
}

export interface PollOptions {
  intervalMs?: number;
  timeoutMs?: number;
  /** Called after every poll (activities heartbeat here). */
  onPoll?: (state: string) => void;
  sleep?: (ms: number) => Promise<void>;
}

/**
 * The SQL Warehouses API (api/2.0/sql/warehouses): create, edit, delete, start and stop, each followed by polling
 * GET until the warehouse reaches the state asked for (Databricks answers these calls before the change is done).
 */
export class SqlWarehousesApi {
  constructor(private readonly http: RestClient) {}

  get = (id: string) => this.http.request<Warehouse>('GET', `/api/2.0/sql/warehouses/${enc(id)}`);

  async create(body: WarehouseRequest, poll: PollOptions = {}): Promise<Warehouse> {
    return this.waitFor(await this.createNoWait(body), ['RUNNING'], poll);
  }

  /** POST only: the new warehouse's id (it is STARTING; the caller's own workflow waits for RUNNING). */
  async createNoWait(body: WarehouseRequest): Promise<string> {
    const { id } = await this.http.request<{ id: string }>('POST', '/api/2.0/sql/warehouses', { body });
    return id;
  }

  async edit(id: string, body: WarehouseRequest): Promise<void> {
    await this.http.request('POST', `/api/2.0/sql/warehouses/${enc(id)}/edit`, { body });
  }

  async start(id: string, poll: PollOptions = {}): Promise<Warehouse> {
    await this.http.request('POST', `/api/2.0/sql/warehouses/${enc(id)}/start`);
    return this.waitFor(id, ['RUNNING'], poll);
  }

  async stop(id: string, poll: PollOptions = {}): Promise<Warehouse> {
    await this.http.request('POST', `/api/2.0/sql/warehouses/${enc(id)}/stop`);
    return this.waitFor(id, ['STOPPED'], poll);
  }

  async delete(id: string, poll: PollOptions = {}): Promise<void> {
    await this.http.request('DELETE', `/api/2.0/sql/warehouses/${enc(id)}`);
    await this.waitFor(id, ['DELETED'], poll).catch((err: unknown) => {
      // A deleted warehouse may answer 404 instead of state DELETED.
      if ((err as { code?: string }).code !== 'NOT_FOUND') throw err;
    });
  }

  /** Polls GET until the state is one of `targets`; a timeout is transient (the activity retries the wait). */
  async waitFor(id: string, targets: string[], poll: PollOptions = {}): Promise<Warehouse> {
    const { intervalMs = 5000, timeoutMs = 20 * 60_000, onPoll } = poll;
    const sleep = poll.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
    const until = Date.now() + timeoutMs;
    for (;;) {
      const w = await this.get(id);
      onPoll?.(w.state ?? 'UNKNOWN');
      if (w.state && targets.includes(w.state)) return w;
      if (Date.now() > until)
        throw new TransientError(`SQL warehouse ${id} is ${w.state ?? 'UNKNOWN'}, not ${targets.join('/')} yet`);
      await sleep(intervalMs);
    }
  }
}
