import { DBSQLParameter } from '@databricks/sql';
import { DriverSqlSession } from '../../platform/databricks/session/driver-session';
import { StaticTokenSource } from '../../platform/databricks/auth/token-source';
import { Secret } from '../../platform/databricks/auth/secret';
import { DeadlineExceededError, StatementCanceledError } from '../../platform/errors';

/**
 * The workbench's statement path through the `@databricks/sql` wrapper, against a stand-in warehouse: named
 * parameters reach the driver as DBSQLParameters, rows are fetched in chunks only up to row_limit, and a
 * timeout or an abort cancels the operation.
 */
function warehouse(total: number, opts: { hang?: boolean } = {}) {
  const log = {
    statements: [] as { sql: string; options: Record<string, unknown> }[],
    fetches: [] as number[],
    cancels: 0,
  };
  let served = 0;
  let release: (() => void) | null = null;
  const client = {
    async connect() {
      return client;
    },
    async openSession() {
      return {
        async executeStatement(sql: string, options: Record<string, unknown>) {
          log.statements.push({ sql, options });
          return {
            async fetchChunk({ maxRows }: { maxRows: number }) {
              log.fetches.push(maxRows);
              if (opts.hang) await new Promise<void>((r) => (release = r));
              const n = Math.min(maxRows, total - served);
              const rows = Array.from({ length: n }, (_, i) => ({ id: served + i }));
              served += n;
              return rows;
            },
            async hasMoreRows() {
              return served < total;
            },
            async cancel() {
              log.cancels++;
              release?.();
              return {};
            },
            async getSchema() {
              return { columns: [{ columnName: 'id', typeDesc: { types: [{ primitiveEntry: { type: 4 } }] } }] };
            },
            async close() {},
          };
        },
      };
    },
    async close() {},
  };
  return { log, newClient: async () => client as never };
}

const session = (wh: ReturnType<typeof warehouse>) =>
  new DriverSqlSession({
    host: 'https://dbc-1.cloud.databricks.com',
    warehouseId: 'abc123',
    tokens: new StaticTokenSource(new Secret('dapi-secret')),
    newClient: wh.newClient,
  });

test('sends typed named parameters and stops fetching at row_limit', async () => {
  const wh = warehouse(25_000);
  const r = await session(wh).executeStreaming('SELECT id FROM t WHERE a = :a AND b = :b', {
    parameters: [
      { name: 'a', value: "x'; DROP TABLE t; --", type: null },
      { name: 'b', value: '5', type: 'INT' },
    ],
    rowLimit: 12_000,
    timeoutMs: 10_000,
  });
  expect(r.rows).toHaveLength(12_000);
  expect(r.truncated).toBe(true);
  expect(wh.log.fetches).toEqual([10_000, 2_001]);
  const params = wh.log.statements[0].options.namedParameters as Record<string, DBSQLParameter>;
  expect(params.a).toBeInstanceOf(DBSQLParameter);
  expect(params.a).toMatchObject({ type: 'STRING', value: "x'; DROP TABLE t; --" });
  expect(params.b).toMatchObject({ type: 'INTEGER', value: '5' });
});

test('a result within row_limit is not truncated', async () => {
  const wh = warehouse(30);
  const r = await session(wh).executeStreaming('SELECT id FROM t', { parameters: [], rowLimit: 30, timeoutMs: 10_000 });
  expect(r).toMatchObject({ truncated: false });
  expect(r.rows).toHaveLength(30);
});

test('a timeout cancels the operation: DeadlineExceededError', async () => {
  const wh = warehouse(10, { hang: true });
  await expect(
    session(wh).executeStreaming('SELECT id FROM t', { parameters: [], rowLimit: 10, timeoutMs: 200 }),
  ).rejects.toBeInstanceOf(DeadlineExceededError);
  expect(wh.log.cancels).toBe(1);
});

test('an abort cancels the operation: StatementCanceledError', async () => {
  const wh = warehouse(10, { hang: true });
  const abort = new AbortController();
  const run = session(wh).executeStreaming('SELECT id FROM t', {
    parameters: [],
    rowLimit: 10,
    timeoutMs: 60_000,
    signal: abort.signal,
  });
  setTimeout(() => abort.abort(), 100);
  await expect(run).rejects.toBeInstanceOf(StatementCanceledError);
  expect(wh.log.cancels).toBe(1);
});
