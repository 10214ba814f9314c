import { createDatabricksWorkspace } from '../../platform/databricks';
import { addColumnsSql, insertBoundRowSql } from '../../platform/databricks/sql/bound-writes';
import { RecordingSqlSession } from '../databricks/recording-session';

/** The Databricks statements of capture: one ADD COLUMNS, and an INSERT whose values are all named parameters. */
const ref = { catalog: 'main', schema: 'cam', name: 'demo_capture_catalog' };

test('missing columns are added in one ALTER TABLE … ADD COLUMNS', () => {
  expect(
    addColumnsSql(ref, [
      { name: 'content', type: 'binary' },
      { name: 'description_style', type: 'string' },
    ]),
  ).toBe('ALTER TABLE `main`.`cam`.`demo_capture_catalog` ADD COLUMNS (`content` BINARY, `description_style` STRING)');
  expect(() => addColumnsSql(ref, [{ name: 'x', type: 'string); DROP TABLE t; --' }])).toThrow(/invalid type/);
});

test('the bytes travel as a bound base64 parameter, never in the SQL text', () => {
  const bytes = Buffer.from([0xff, 0xd8, 0xff, 0x00, 0x27]);
  const { sql, parameters } = insertBoundRowSql(ref, [
    { name: 'capture_id', type: 'string', value: "x'; DROP TABLE t; --" },
    { name: 'width', type: 'int', value: 64 },
    { name: 'submitted_by', type: 'string', value: null },
    { name: 'content', type: 'binary', value: bytes },
  ]);
  expect(sql).toBe(
    'INSERT INTO `main`.`cam`.`demo_capture_catalog` (`capture_id`, `width`, `submitted_by`, `content`) ' +
      'VALUES (CAST(:v0 AS STRING), CAST(:v1 AS INT), CAST(:v2 AS STRING), unbase64(:v3))',
  );
  expect(parameters).toEqual([
    { name: 'v0', value: "x'; DROP TABLE t; --", type: 'STRING' },
    { name: 'v1', value: '64', type: 'STRING' },
    { name: 'v2', value: null, type: 'STRING' },
    { name: 'v3', value: bytes.toString('base64'), type: 'STRING' },
  ]);
});

test('through the Databricks adapter: ADD COLUMNS as one statement, the INSERT streamed with its parameters', async () => {
  const recorder = new RecordingSqlSession([]);
  const ws = await createDatabricksWorkspace({
    host: 'https://dbc-test.cloud.databricks.com',
    warehouseId: 'wh1',
    auth: { type: 'pat', token: 'dapi0123' },
    sqlSession: recorder,
  });
  await ws.addColumns(ref, [{ name: 'description_style', type: 'string' }]);
  await ws.insertBoundRow(ref, [{ name: 'content', type: 'binary', value: Buffer.from('jpeg') }]);
  expect(recorder.statements).toEqual([
    'ALTER TABLE `main`.`cam`.`demo_capture_catalog` ADD COLUMNS (`description_style` STRING)',
    'INSERT INTO `main`.`cam`.`demo_capture_catalog` (`content`) VALUES (unbase64(:v0))',
  ]);
  expect(recorder.streamed).toEqual([
    {
      sql: 'INSERT INTO `main`.`cam`.`demo_capture_catalog` (`content`) VALUES (unbase64(:v0))',
      parameters: [{ name: 'v0', value: Buffer.from('jpeg').toString('base64'), type: 'STRING' }],
    },
  ]);
  await ws.close();
});
