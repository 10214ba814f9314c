import OperationStateError, { OperationStateErrorCode } from '@databricks/sql/dist/errors/OperationStateError';
import { THTTPException } from '@databricks/sql/dist/connection/connections/ThriftHttpConnection';
import { DriverSqlSession } from '../../platform/databricks/session/driver-session';
import { StaticTokenSource, DatabricksM2MTokenSource } from '../../platform/databricks/auth/token-source';
import { Secret } from '../../platform/databricks/auth/secret';
import { InvalidWarehouseError, NotFoundError } from '../../platform/errors';

/**
 * A stand-in for the warehouse behind `DBSQLClient`: it records what the adapter asks of the driver
 * (connect options, session configuration, statements, closes) and answers statements from a function.
 */
function fakeWarehouse(answer: (sql: string) => Record<string, unknown>[] | Error = () => []) {
  const log = {
    connects: [] as Record<string, unknown>[],
    sessions: [] as unknown[],
    statements: [] as string[],
    opsClosed: 0,
    clientClosed: 0,
  };
  const client = {
    async connect(o: Record<string, unknown>) {
      log.connects.push(o);
      return client;
    },
    async openSession(req: unknown) {
      log.sessions.push(req);
      return {
        async executeStatement(sql: string) {
          log.statements.push(sql);
          const result = answer(sql);
          if (result instanceof Error) throw result;
          return {
            fetchAll: async () => result,
            getSchema: async () => ({
              columns: Object.keys(result[0] ?? {}).map((columnName) => ({
                columnName,
                typeDesc: { types: [{ primitiveEntry: { type: 4 } }] },
              })),
            }),
            close: async () => void log.opsClosed++,
          };
        },
      };
    },
    async close() {
      log.clientClosed++;
    },
  };
  return { log, newClient: async () => client as never };
}

const host = 'https://dbc-1.cloud.databricks.com';

describe('the @databricks/sql session wrapper', () => {
  it('connects once to the warehouse path, opens a session with STATEMENT_TIMEOUT and reuses it', async () => {
    const wh = fakeWarehouse(() => [{ n: 7n }]);
    const s = new DriverSqlSession({
      host,
      warehouseId: 'abc123',
      tokens: new StaticTokenSource(new Secret('dapiX')),
      statementTimeoutSeconds: 900,
      newClient: wh.newClient,
    });
    expect(await s.executeStatement('SELECT 7 AS n')).toEqual({
      columns: [{ name: 'n', type: 'bigint' }],
      rows: [{ n: 7 }],
    });
    await s.executeStatement('SELECT 8 AS n');
    expect(wh.log.connects).toEqual([
      expect.objectContaining({
        host: 'dbc-1.cloud.databricks.com',
        path: '/sql/1.0/warehouses/abc123',
        authType: 'access-token',
        token: 'dapiX',
        telemetryEnabled: false,
      }),
    ]);
    expect(wh.log.sessions).toEqual([{ configuration: { STATEMENT_TIMEOUT: '900' } }]);
    expect(wh.log.opsClosed).toBe(2);
    await s.close();
    expect(wh.log.clientClosed).toBe(1);
  });

  it('hands OAuth tokens to the driver through a callback, never as a fixed token', async () => {
    const wh = fakeWarehouse();
    const tokens = new DatabricksM2MTokenSource(host, 'app', new Secret('sec'));
    await new DriverSqlSession({ host, warehouseId: 'abc123', tokens, newClient: wh.newClient }).executeStatement(
      'SELECT 1',
    );
    expect(wh.log.connects[0]).toMatchObject({ authType: 'external-token' });
    expect(typeof wh.log.connects[0].getToken).toBe('function');
    expect(wh.log.connects[0]).not.toHaveProperty('token');
  });

  it('opens at most maxSessions sessions for concurrent statements', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const wh = fakeWarehouse(() => []);
    const s = new DriverSqlSession({
      host,
      warehouseId: 'abc123',
      tokens: new StaticTokenSource(new Secret('t')),
      maxSessions: 2,
      newClient: async () => {
        await gate;
        return wh.newClient();
      },
    });
    const running = Promise.all([1, 2, 3, 4, 5].map((i) => s.executeStatement(`SELECT ${i}`)));
    release();
    await running;
    expect(wh.log.sessions.length).toBeLessThanOrEqual(2);
    expect(wh.log.statements).toHaveLength(5);
  });

  it('classifies statement and connection failures', async () => {
    const wh = fakeWarehouse(
      () =>
        new OperationStateError(OperationStateErrorCode.Error, {
          displayMessage: '[TABLE_OR_VIEW_NOT_FOUND] missing',
        } as never),
    );
    const s = new DriverSqlSession({
      host,
      warehouseId: 'abc123',
      tokens: new StaticTokenSource(new Secret('t')),
      newClient: wh.newClient,
    });
    await expect(s.executeStatement('SELECT * FROM x')).rejects.toBeInstanceOf(NotFoundError);
    const broken = new DriverSqlSession({
      host,
      warehouseId: 'gone1',
      tokens: new StaticTokenSource(new Secret('t')),
      newClient: async () => {
        throw new THTTPException({ status: 404 } as never);
      },
    });
    await expect(broken.executeStatement('SELECT 1')).rejects.toBeInstanceOf(InvalidWarehouseError);
    expect(
      () => new DriverSqlSession({ host, warehouseId: '', tokens: new StaticTokenSource(new Secret('t')) }),
    ).toThrow(InvalidWarehouseError);
  });
});
