import { createDatabricksWorkspace } from '../../platform/databricks';
import { cloneTableSql, restoreTableSql, vacuumSql } from '../../platform/databricks/sql/delta-ops';
import { createTableSql, createViewSql } from '../../platform/databricks/sql/ddl';
import { readOnlyQuery, singleStatement } from '../../platform/databricks/sql/fragments';
import { grantSql } from '../../platform/databricks/sql/governance';
import {
  leaseDriverSession,
  openDatabricksSessionCount,
  closeAllDatabricksSessions,
} from '../../platform/databricks/session/pool';
import { plainValue } from '../../platform/databricks/session/sql-session';
import { StaticTokenSource } from '../../platform/databricks/auth/token-source';
import { Secret } from '../../platform/databricks/auth/secret';
import { InvalidInputError } from '../../platform/errors';
import { RecordingSqlSession } from './recording-session';

const t = { catalog: 'main', schema: 'sales', name: 'orders' };

describe('bad input is refused with a typed error naming the problem, before any SQL is sent', () => {
  it.each([
    ['clone type', () => cloneTableSql({ source: t, target: t, cloneType: 'FAST' as never }), /cloneType/],
    [
      'version and timestamp together',
      () => cloneTableSql({ source: t, target: t, cloneType: 'DEEP', version: 1, timestamp: 'x' }),
      /either version or timestamp/,
    ],
    ['negative version', () => restoreTableSql(t, { version: -1 }), /version must be a non-negative integer/],
    ['restore without target', () => restoreTableSql(t, {}), /version or a timestamp/],
    ['fractional retention', () => vacuumSql(t, { retentionHours: 1.5 }), /retentionHours/],
    [
      'smuggled statement in a view',
      () => createViewSql({ ref: t, definition: 'SELECT 1; DROP TABLE x' }),
      /single statement/,
    ],
    ['unterminated quote in a view', () => createViewSql({ ref: t, definition: "SELECT 'x" }), /unterminated ' quote/],
    ['comment that swallows the rest', () => singleStatement('a = 1 /* ', 'where'), /unterminated \/\* comment/],
    [
      'type with injection',
      () => createTableSql({ ref: t, columns: [{ name: 'a', type: 'int) ; DROP TABLE x; --' }] }),
      /column a: invalid data type/,
    ],
    [
      'privilege with injection',
      () => grantSql({ type: 'TABLE', ...t }, 'x', ['SELECT ON CATALOG main TO `evil`; --']),
      /invalid privilege/,
    ],
    ['empty table', () => createTableSql({ ref: t, columns: [] }), /at least one column/],
  ])('%s', (_name, build, message) => {
    expect(build).toThrow(InvalidInputError);
    expect(build).toThrow(message);
  });

  it('keeps semicolons and dashes inside string literals', () => {
    expect(singleStatement("note = 'a;b -- c' ;", 'where')).toBe("note = 'a;b -- c'");
    expect(readOnlyQuery('WITH x AS (SELECT 1) SELECT * FROM x')).toBe('WITH x AS (SELECT 1) SELECT * FROM x');
    expect(singleStatement('amount > 0 -- must be positive', 'check expression')).toBe('amount > 0');
  });

  it('validates Unity Catalog names in workspace calls and sends nothing', async () => {
    const rec = new RecordingSqlSession();
    const ws = await createDatabricksWorkspace({
      host: 'https://h.cloud.databricks.com',
      warehouseId: 'wh1',
      auth: { type: 'pat', token: 't0k3n' },
      sqlSession: rec,
    });
    await expect(ws.createSchema({ catalog: 'main', name: 'has space' })).rejects.toThrow(
      /invalid schema name "has space"/,
    );
    await expect(ws.dropTable({ catalog: 'main', schema: 'a.b', name: 't' })).rejects.toThrow(/schema name/);
    await expect(ws.setTags({ type: 'FUNCTION', catalog: 'main', schema: 's', name: 'f' }, { a: 'b' })).rejects.toThrow(
      /cannot carry tags/,
    );
    await expect(ws.addCheckConstraint(t, { name: 'bad name', expression: 'a > 0' })).rejects.toThrow(
      /constraint name/,
    );
    await expect(ws.grant({ type: 'TABLE', ...t }, '', ['SELECT'])).rejects.toThrow(/invalid principal/);
    expect(rec.statements).toEqual([]);
  });
});

describe('driver plumbing', () => {
  it('shares one driver session per host, warehouse and identity and closes it with the last lease', async () => {
    const tokens = new StaticTokenSource(new Secret('dapiA'));
    const o = { host: 'https://h.cloud.databricks.com', warehouseId: 'wh1', tokens };
    const a = leaseDriverSession(o);
    const b = leaseDriverSession(o);
    const other = leaseDriverSession({ ...o, tokens: new StaticTokenSource(new Secret('dapiB')) });
    expect(openDatabricksSessionCount()).toBe(2);
    await a.close();
    await a.close();
    expect(openDatabricksSessionCount()).toBe(2);
    await b.close();
    expect(openDatabricksSessionCount()).toBe(1);
    await closeAllDatabricksSessions();
    expect(openDatabricksSessionCount()).toBe(0);
    await other.close();
  });

  it('turns driver values into plain JSON-friendly values', () => {
    expect(plainValue(42n, 'bigint')).toBe(42);
    expect(plainValue(2n ** 60n, 'bigint')).toBe(2n ** 60n);
    expect(plainValue(new Date('2026-01-01T00:00:00Z'), 'timestamp')).toBe('2026-01-01T00:00:00.000Z');
    expect(plainValue('{"a":[1,2]}', 'struct')).toEqual({ a: [1, 2] });
    expect(plainValue('12.50', 'decimal')).toBe('12.50');
  });
});
