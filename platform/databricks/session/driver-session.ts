import { createHash } from 'node:crypto';
import type { DBSQLClient as Client, DBSQLParameterType } from '@databricks/sql';
import type IDBSQLSession from '@databricks/sql/dist/contracts/IDBSQLSession';
import type { TTableSchema } from '@databricks/sql/thrift/TCLIService_types';
import { DeadlineExceededError, InvalidWarehouseError, StatementCanceledError } from '../../errors';
import { lazyModule } from '../../lazy-module';
import { currentJob } from '../../observability/log-context';
import { tagStatement } from '../../sql/job-tag';
import type { TokenSource } from '../auth/token-source';
import { classifySqlError } from '../classify';
import { plainValue, type SqlRows, type SqlSession, type StreamingOptions } from './sql-session';
import { typeName } from './type-names';

/** The driver (10 MB of heap with thrift) loads with the first Databricks session, not with every process. */
const driver = lazyModule<typeof import('@databricks/sql')>('@databricks/sql');

export interface DriverSessionOptions {
  host: string;
  warehouseId: string;
  tokens: TokenSource;
  /** Server-side limit per statement (session conf STATEMENT_TIMEOUT; `queryTimeout` is ignored by warehouses). */
  statementTimeoutSeconds?: number;
  /** Sessions opened per (host, warehouse, identity); statements are spread over them. */
  maxSessions?: number;
  /** Makes the driver client; the default is `new DBSQLClient()` (tests pass a stand-in for a workspace). */
  newClient?: () => Promise<Client>;
}

interface Slot {
  session: IDBSQLSession;
  inFlight: number;
}

/** One DBSQLClient per (host, warehouse, identity) with a few long-lived sessions reused across statements. */
export class DriverSqlSession implements SqlSession {
  private client?: Promise<Client>;
  private readonly slots: Slot[] = [];
  private readonly opening = new Set<Promise<Slot>>();

  constructor(private readonly o: DriverSessionOptions) {
    if (!/^[A-Za-z0-9]+$/.test(o.warehouseId ?? '')) {
      throw new InvalidWarehouseError(`invalid SQL warehouse id ${JSON.stringify(o.warehouseId ?? null)}`);
    }
  }

  async executeStatement(sql: string): Promise<SqlRows> {
    const slot = await this.slot();
    slot.inFlight++;
    try {
      // A job's statements carry its id (system.query.history → the job-costs view allocates cost by them).
      const op = await slot.session.executeStatement(tagStatement(sql, currentJob()));
      try {
        const raw = (await op.fetchAll()) as Record<string, unknown>[];
        const columns = schemaColumns(await op.getSchema());
        const rows = raw.map((r) => Object.fromEntries(columns.map((c) => [c.name, plainValue(r[c.name], c.type)])));
        return { columns, rows };
      } finally {
        await op.close().catch(() => undefined);
      }
    } catch (err) {
      if (/invalid (session|operation)handle/i.test(String((err as Error)?.message))) this.drop(slot);
      throw classifySqlError(err, this.o.tokens.secrets(), 'SQL statement');
    } finally {
      slot.inFlight--;
    }
  }

  async executeStreaming(sql: string, opts: StreamingOptions): Promise<SqlRows & { truncated: boolean }> {
    const slot = await this.slot();
    slot.inFlight++;
    let stopped: 'timeout' | 'cancel' | null = null;
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    try {
      if (opts.signal?.aborted) throw new StatementCanceledError('the statement was cancelled before it started');
      const { DBSQLParameter } = driver();
      const namedParameters = Object.fromEntries(
        opts.parameters.map((p) => [p.name, new DBSQLParameter({ type: parameterType(p.type), value: p.value })]),
      );
      const op = await slot.session.executeStatement(tagStatement(sql, currentJob()), { namedParameters });
      const stop = (why: 'timeout' | 'cancel') => {
        if (stopped) return;
        stopped = why;
        void op.cancel().catch(() => undefined);
      };
      timer = setTimeout(() => stop('timeout'), opts.timeoutMs);
      onAbort = () => stop('cancel');
      opts.signal?.addEventListener('abort', onAbort, { once: true });
      try {
        const raw: Record<string, unknown>[] = [];
        let truncated = false;
        for (;;) {
          const want = Math.min(10_000, opts.rowLimit - raw.length + 1);
          const chunk = (await op.fetchChunk({ maxRows: want })) as Record<string, unknown>[];
          // A cancelled operation may still hand back what it had; the statement ended all the same.
          if (stopped) throw new Error(`statement stopped (${stopped})`);
          raw.push(...chunk);
          if (raw.length > opts.rowLimit) {
            truncated = true;
            raw.length = opts.rowLimit;
            break;
          }
          if (!(await op.hasMoreRows())) break;
          if (raw.length === opts.rowLimit) {
            truncated = true;
            break;
          }
        }
        const columns = schemaColumns(await op.getSchema());
        const rows = raw.map((r) => Object.fromEntries(columns.map((c) => [c.name, plainValue(r[c.name], c.type)])));
        return { columns, rows, truncated };
      } finally {
        await op.close().catch(() => undefined);
      }
    } catch (err) {
      if (stopped === 'timeout')
        throw new DeadlineExceededError(`the statement ran longer than ${opts.timeoutMs / 1000} s and was cancelled`);
      if (stopped === 'cancel' || err instanceof StatementCanceledError)
        throw new StatementCanceledError('the statement was cancelled');
      if (/invalid (session|operation)handle/i.test(String((err as Error)?.message))) this.drop(slot);
      throw classifySqlError(err, this.o.tokens.secrets(), 'SQL statement');
    } finally {
      clearTimeout(timer);
      if (onAbort) opts.signal?.removeEventListener('abort', onAbort);
      slot.inFlight--;
    }
  }

  async close(): Promise<void> {
    const client = this.client;
    this.client = undefined;
    this.slots.length = 0;
    if (client) await (await client.catch(() => undefined))?.close().catch(() => undefined);
  }

  private async slot(): Promise<Slot> {
    const idle = this.slots.find((s) => s.inFlight === 0);
    if (idle) return idle;
    if (this.slots.length + this.opening.size < (this.o.maxSessions ?? 4)) return this.open();
    // At capacity with every session opening: wait for one to finish opening, then choose again.
    if (this.slots.length === 0) return Promise.race(this.opening).then(() => this.slot());
    return this.slots.reduce((a, b) => (b.inFlight < a.inFlight ? b : a));
  }

  private open(): Promise<Slot> {
    const opening = (async () => {
      try {
        const session = await (
          await this.connect()
        ).openSession({
          configuration: { STATEMENT_TIMEOUT: String(this.o.statementTimeoutSeconds ?? 3600) },
        });
        const slot = { session, inFlight: 0 };
        this.slots.push(slot);
        return slot;
      } catch (err) {
        throw classifySqlError(err, this.o.tokens.secrets(), `opening a session on warehouse ${this.o.warehouseId}`);
      }
    })();
    this.opening.add(opening);
    void opening.finally(() => this.opening.delete(opening)).catch(() => undefined);
    return opening;
  }

  private drop(slot: Slot): void {
    const i = this.slots.indexOf(slot);
    if (i >= 0) this.slots.splice(i, 1);
  }

  private connect(): Promise<Client> {
    this.client ??= (async () => {
      const client = this.o.newClient ? await this.o.newClient() : new (driver().DBSQLClient)();
      const tokens = this.o.tokens;
      const auth =
        tokens.method === 'pat'
          ? { authType: 'access-token' as const, token: await tokens.token() }
          : { authType: 'external-token' as const, getToken: () => tokens.token() };
      await client.connect({
        host: new URL(this.o.host).host,
        path: `/sql/1.0/warehouses/${this.o.warehouseId}`,
        ...auth,
        preserveBigNumericPrecision: true,
        telemetryEnabled: false,
        userAgentEntry: 'lakeward',
      });
      return client;
    })();
    this.client.catch(() => (this.client = undefined));
    return this.client;
  }
}

function schemaColumns(schema: TTableSchema | null): SqlRows['columns'] {
  return (schema?.columns ?? []).map((c) => ({ name: c.columnName, type: typeName(c.typeDesc) }));
}

/** Pool key: never contains a secret, only a hash of it, so two identities never share a session. */
export function poolKey(host: string, warehouseId: string, tokens: TokenSource): string {
  const who = createHash('sha256')
    .update(tokens.secrets()[0] ?? '')
    .digest('hex')
    .slice(0, 16);
  return `${host}|${warehouseId}|${tokens.method}|${who}`;
}

/** The driver's parameter type for a statement parameter's type (INT is INTEGER there; DECIMAL keeps (p,s)). */
function parameterType(type: string | null): DBSQLParameterType {
  const t = (type ?? 'STRING').toUpperCase();
  return (t === 'INT' ? 'INTEGER' : t) as DBSQLParameterType;
}
