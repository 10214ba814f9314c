import { createDatabricksWorkspace, type DatabricksWorkspace } from '../../platform/databricks';
import type { Securable, TableRef } from '../../platform/types';
import { RecordingSqlSession } from './recording-session';
import { StubServer } from './stub-server';

/**
 * One deep clone with every kind of metadata copied, in the order a clone activity applies it:
 * clone, comments, tags, column tags, extra properties, owner, grants, row filter, column masks.
 * Reads come from the source (REST for owner/grants/comments/filters/masks, SQL for tags/properties).
 */
async function deepCloneWithMetadata(ws: DatabricksWorkspace, source: TableRef, target: TableRef) {
  const src: Securable = { type: 'TABLE', ...source };
  const dst: Securable = { type: 'TABLE', ...target };
  const metrics = await ws.cloneTable({
    source,
    target,
    cloneType: 'DEEP',
    version: 5,
    properties: { 'lakeward.source': 'main.sales.orders@5' },
  });
  await ws.setComment(dst, await ws.getComment(src));
  for (const [column, comment] of Object.entries(await ws.getColumnComments(source)))
    await ws.setColumnComment(target, column, comment);
  await ws.setTags(dst, await ws.getTags(src));
  for (const [column, tags] of Object.entries(await ws.getColumnTags(source)))
    await ws.setColumnTags(target, column, tags);
  const owner = await ws.getOwner(src);
  if (owner) await ws.setOwner(dst, owner);
  for (const g of await ws.getGrants(src)) await ws.grant(dst, g.principal, g.privileges);
  const filter = await ws.getRowFilter(source);
  if (filter) await ws.setRowFilter(target, filter);
  for (const mask of await ws.getColumnMasks(source)) await ws.setColumnMask(target, mask);
  return metrics;
}

describe('deep clone with all metadata', () => {
  const stub = new StubServer();
  beforeAll(async () => {
    stub
      .on('GET /api/2.1/unity-catalog/tables/main.sales.orders', {
        json: {
          catalog_name: 'main',
          schema_name: 'sales',
          name: 'orders',
          owner: 'data-eng',
          comment: "Orders' master",
          columns: [
            { name: 'id', comment: 'Order id' },
            {
              name: 'ssn',
              comment: null,
              mask: { function_name: 'main.sec.mask_ssn', using_column_names: ['region'] },
            },
            { name: 'region' },
          ],
          row_filter: { function_name: 'main.sec.eu_only', input_column_names: ['region'] },
        },
      })
      .on('GET /api/2.1/unity-catalog/permissions/table/main.sales.orders', {
        json: {
          privilege_assignments: [
            { principal: 'analysts', privileges: ['SELECT'] },
            { principal: 'a@x.com', privileges: ['SELECT', 'MODIFY'] },
          ],
        },
      });
    await stub.start();
  });
  afterAll(() => stub.stop());

  it('sends exactly these statements and REST reads', async () => {
    const rec = new RecordingSqlSession([
      [
        'CREATE OR REPLACE TABLE',
        {
          rows: [
            {
              source_table_size: 4096,
              source_num_of_files: 3,
              num_removed_files: 0,
              num_copied_files: 3,
              removed_files_size: 0,
              copied_files_size: 4096,
            },
          ],
        },
      ],
      ['SELECT tag_name', { rows: [{ tag_name: 'domain', tag_value: 'sales' }] }],
      ['SELECT column_name, tag_name', { rows: [{ column_name: 'ssn', tag_name: 'pii', tag_value: 'ssn' }] }],
    ]);
    const ws = await createDatabricksWorkspace({
      host: stub.url,
      warehouseId: 'wh1',
      auth: { type: 'pat', token: 'dapi0123' },
      sqlSession: rec,
    });
    const source = { catalog: 'main', schema: 'sales', name: 'orders' };
    const target = { catalog: 'main_dev', schema: 'sales', name: 'orders' };

    const metrics = await deepCloneWithMetadata(ws, source, target);

    const T = '`main_dev`.`sales`.`orders`';
    expect(rec.statements).toEqual([
      `CREATE OR REPLACE TABLE ${T} DEEP CLONE \`main\`.\`sales\`.\`orders\` VERSION AS OF 5 TBLPROPERTIES ('lakeward.source' = 'main.sales.orders@5')`,
      `COMMENT ON TABLE ${T} IS 'Orders\\' master'`,
      `ALTER TABLE ${T} ALTER COLUMN \`id\` COMMENT 'Order id'`,
      "SELECT tag_name, tag_value FROM `main`.information_schema.table_tags WHERE catalog_name = 'main' AND schema_name = 'sales' AND table_name = 'orders' ORDER BY tag_name",
      `ALTER TABLE ${T} SET TAGS ('domain' = 'sales')`,
      "SELECT column_name, tag_name, tag_value FROM `main`.information_schema.column_tags WHERE catalog_name = 'main' AND schema_name = 'sales' AND table_name = 'orders' ORDER BY column_name, tag_name",
      `ALTER TABLE ${T} ALTER COLUMN \`ssn\` SET TAGS ('pii' = 'ssn')`,
      `ALTER TABLE ${T} OWNER TO \`data-eng\``,
      `GRANT MODIFY, SELECT ON TABLE ${T} TO \`a@x.com\``,
      `GRANT SELECT ON TABLE ${T} TO \`analysts\``,
      `ALTER TABLE ${T} SET ROW FILTER \`main\`.\`sec\`.\`eu_only\` ON (\`region\`)`,
      `ALTER TABLE ${T} ALTER COLUMN \`ssn\` SET MASK \`main\`.\`sec\`.\`mask_ssn\` USING COLUMNS (\`region\`)`,
    ]);
    expect(stub.paths()).toEqual([
      'GET /api/2.1/unity-catalog/tables/main.sales.orders',
      'GET /api/2.1/unity-catalog/tables/main.sales.orders',
      'GET /api/2.1/unity-catalog/tables/main.sales.orders',
      'GET /api/2.1/unity-catalog/permissions/table/main.sales.orders',
      'GET /api/2.1/unity-catalog/tables/main.sales.orders',
      'GET /api/2.1/unity-catalog/tables/main.sales.orders',
    ]);
    expect(stub.seen.every((r) => r.headers.authorization === 'Bearer dapi0123')).toBe(true);
    expect(metrics).toEqual({
      sourceTableSize: 4096,
      sourceNumOfFiles: 3,
      numRemovedFiles: 0,
      numCopiedFiles: 3,
      removedFilesSize: 0,
      copiedFilesSize: 4096,
    });
  });
});
