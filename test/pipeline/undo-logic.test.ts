import { undoPlanOf, writeTargets } from '../../activities/pipeline/logic/undo';
import { tableWriteOf } from '../../activities/pipeline/logic/write-sql';

/** What rollback does per step kind, and custom_sql writes as port table writes, without servers. */
test('every step kind either records its tables before it runs or says why there is nothing to undo', () => {
  const plan = (type: string, config: Record<string, unknown> = {}) => undoPlanOf({ type, config });
  expect(plan('clone')).toEqual({ kind: 'clone_job' });
  expect(plan('optimize', { table_fqn: 'a.b.c' })).toEqual({
    kind: 'record',
    objects: [{ type: 'table', fqn: 'a.b.c' }],
  });
  expect(plan('sync', { source_catalog: 's', destination_catalog: 'd', schema_name: 'x' })).toEqual({
    kind: 'record_sync',
    source: { catalog: 's', schema: 'x' },
    destination: { catalog: 'd', schema: 'x' },
  });
  expect(plan('sync', { dry_run: true }).kind).toBe('none');
  expect(plan('custom_sql', { sql: 'UPDATE a.b.c SET x = 1', allow_write: true })).toEqual({
    kind: 'record',
    objects: [{ type: 'table', fqn: 'a.b.c' }],
  });
  expect(plan('custom_sql', { sql: 'SELECT 1' })).toMatchObject({
    kind: 'none',
    reason: expect.stringContaining('read-only'),
  });
  for (const t of [
    'validate',
    'gate',
    'contract_validate',
    'dq_run',
    'wait',
    'approval',
    'notify',
    'webhook',
    'vacuum',
    'convert',
  ])
    expect(plan(t)).toMatchObject({ kind: 'none', reason: expect.any(String) });
  expect(writeTargets('insert into `a`.b.c select * from x.y.z; delete from a.b.d where 1=1')).toEqual([
    'a.b.c',
    'a.b.d',
  ]);
});

test('custom_sql writes map onto the port: insert, overwrite, delete, update (commas inside calls kept)', () => {
  expect(tableWriteOf('INSERT INTO a.b.c SELECT * FROM a.b.d;')).toEqual({
    kind: 'insert',
    fqn: 'a.b.c',
    query: 'SELECT * FROM a.b.d',
  });
  expect(tableWriteOf('insert overwrite table a.b.c with q as (select 1) select * from q')).toMatchObject({
    kind: 'overwrite',
  });
  expect(tableWriteOf('DELETE FROM a.b.c')).toEqual({ kind: 'delete', fqn: 'a.b.c', predicate: 'TRUE' });
  expect(tableWriteOf("UPDATE a.b.c SET x = coalesce(y, 1), `z` = 'a,b' WHERE id > 3")).toEqual({
    kind: 'update',
    fqn: 'a.b.c',
    set: { x: 'coalesce(y, 1)', z: "'a,b'" },
    predicate: 'id > 3',
  });
  expect(tableWriteOf('DROP TABLE a.b.c')).toBeNull();
  expect(tableWriteOf('MERGE INTO a.b.c USING a.b.d ON true WHEN MATCHED THEN DELETE')).toBeNull();
});
