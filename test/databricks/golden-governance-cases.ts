import * as g from '../../platform/databricks/sql/governance';
import * as stats from '../../platform/databricks/sql/stats';
import type { Securable } from '../../platform/types';
import type { GoldenCase } from './golden-cases';

/** Governance and stats builders with exact expected text (hostile names as in golden-cases.ts). */
const ref = { catalog: 'we`ird', schema: 'sp ace.dot', name: `q'uo"te` };
const R = '`we``ird`.`sp ace.dot`.`q\'uo"te`';
const LIT = "'it\\'s a \\\\ back\\nslash\\ttab'";
const TEXT = "it's a \\ back\nslash\ttab";
const catalog: Securable = { type: 'CATALOG', catalog: 'we`ird' };
const schema: Securable = { type: 'SCHEMA', catalog: 'main', schema: 'ünï' };
const table: Securable = { type: 'TABLE', ...ref };
const view: Securable = { type: 'VIEW', catalog: 'main', schema: 'sales', name: 'v' };
const volume: Securable = { type: 'VOLUME', catalog: 'main', schema: 'sales', name: 'raw' };
const fn: Securable = { type: 'FUNCTION', catalog: 'main', schema: 'sales', name: 'mask_ssn' };

export const governanceCases: GoldenCase[] = [
  {
    name: 'grant on table',
    build: () => g.grantSql(table, 'data eng`s', ['select', 'MODIFY']),
    expected: `GRANT SELECT, MODIFY ON TABLE ${R} TO \`data eng\`\`s\``,
  },
  {
    name: 'grant on catalog',
    build: () => g.grantSql(catalog, 'a@b.com', ['USE CATALOG']),
    expected: 'GRANT USE CATALOG ON CATALOG `we``ird` TO `a@b.com`',
  },
  {
    name: 'grant on view uses TABLE',
    build: () => g.grantSql(view, 'analysts', ['SELECT']),
    expected: 'GRANT SELECT ON TABLE `main`.`sales`.`v` TO `analysts`',
  },
  {
    name: 'grant on function',
    build: () => g.grantSql(fn, 'analysts', ['EXECUTE']),
    expected: 'GRANT EXECUTE ON FUNCTION `main`.`sales`.`mask_ssn` TO `analysts`',
  },
  {
    name: 'grant on volume',
    build: () => g.grantSql(volume, 'analysts', ['READ VOLUME']),
    expected: 'GRANT READ VOLUME ON VOLUME `main`.`sales`.`raw` TO `analysts`',
  },
  {
    name: 'revoke on schema',
    build: () => g.revokeSql(schema, 'analysts', ['USE SCHEMA', 'SELECT']),
    expected: 'REVOKE USE SCHEMA, SELECT ON SCHEMA `main`.`ünï` FROM `analysts`',
  },
  {
    name: 'owner of table',
    build: () => g.setOwnerSql(table, 'owner@x.com'),
    expected: `ALTER TABLE ${R} OWNER TO \`owner@x.com\``,
  },
  {
    name: 'owner of catalog',
    build: () => g.setOwnerSql(catalog, 'admins'),
    expected: 'ALTER CATALOG `we``ird` OWNER TO `admins`',
  },
  {
    name: 'owner of schema',
    build: () => g.setOwnerSql(schema, 'admins'),
    expected: 'ALTER SCHEMA `main`.`ünï` OWNER TO `admins`',
  },
  {
    name: 'owner of view',
    build: () => g.setOwnerSql(view, 'admins'),
    expected: 'ALTER VIEW `main`.`sales`.`v` OWNER TO `admins`',
  },
  {
    name: 'owner of volume',
    build: () => g.setOwnerSql(volume, 'admins'),
    expected: 'ALTER VOLUME `main`.`sales`.`raw` OWNER TO `admins`',
  },
  {
    name: 'owner of function',
    build: () => g.setOwnerSql(fn, 'admins'),
    expected: 'ALTER FUNCTION `main`.`sales`.`mask_ssn` OWNER TO `admins`',
  },
  {
    name: 'tags on catalog',
    build: () => g.setTagsSql(catalog, { env: 'prod', note: TEXT }),
    expected: `ALTER CATALOG \`we\`\`ird\` SET TAGS ('env' = 'prod', 'note' = ${LIT})`,
  },
  {
    name: 'tags on schema',
    build: () => g.setTagsSql(schema, { "o'k": 'v' }),
    expected: "ALTER SCHEMA `main`.`ünï` SET TAGS ('o\\'k' = 'v')",
  },
  {
    name: 'tags on table',
    build: () => g.setTagsSql(table, { pii: 'true' }),
    expected: `ALTER TABLE ${R} SET TAGS ('pii' = 'true')`,
  },
  {
    name: 'tags on volume',
    build: () => g.setTagsSql(volume, { tier: 'raw' }),
    expected: "ALTER VOLUME `main`.`sales`.`raw` SET TAGS ('tier' = 'raw')",
  },
  {
    name: 'unset tags',
    build: () => g.unsetTagsSql(table, ['pii', 'a\\b']),
    expected: `ALTER TABLE ${R} UNSET TAGS ('pii', 'a\\\\b')`,
  },
  {
    name: 'column tags',
    build: () => g.setColumnTagsSql(ref, 'e mail`x', { pii: 'email' }),
    expected: `ALTER TABLE ${R} ALTER COLUMN \`e mail\`\`x\` SET TAGS ('pii' = 'email')`,
  },
  {
    name: 'unset column tags',
    build: () => g.unsetColumnTagsSql(ref, 'email', ['pii']),
    expected: `ALTER TABLE ${R} ALTER COLUMN \`email\` UNSET TAGS ('pii')`,
  },
  { name: 'comment on table', build: () => g.commentOnSql(table, TEXT), expected: `COMMENT ON TABLE ${R} IS ${LIT}` },
  {
    name: 'comment on view is ON TABLE',
    build: () => g.commentOnSql(view, 'v'),
    expected: "COMMENT ON TABLE `main`.`sales`.`v` IS 'v'",
  },
  {
    name: 'comment removed on catalog',
    build: () => g.commentOnSql(catalog, null),
    expected: 'COMMENT ON CATALOG `we``ird` IS NULL',
  },
  {
    name: 'comment on schema',
    build: () => g.commentOnSql(schema, 's'),
    expected: "COMMENT ON SCHEMA `main`.`ünï` IS 's'",
  },
  {
    name: 'comment on volume',
    build: () => g.commentOnSql(volume, 'files'),
    expected: "COMMENT ON VOLUME `main`.`sales`.`raw` IS 'files'",
  },
  {
    name: 'column comment',
    build: () => g.columnCommentSql(ref, 'a.b', TEXT),
    expected: `ALTER TABLE ${R} ALTER COLUMN \`a.b\` COMMENT ${LIT}`,
  },
  {
    name: 'set tblproperties',
    build: () => g.setTblPropertiesSql(ref, { 'delta.appendOnly': 'false', x: TEXT }),
    expected: `ALTER TABLE ${R} SET TBLPROPERTIES ('delta.appendOnly' = 'false', 'x' = ${LIT})`,
  },
  {
    name: 'unset tblproperties',
    build: () => g.unsetTblPropertiesSql(ref, ['x']),
    expected: `ALTER TABLE ${R} UNSET TBLPROPERTIES IF EXISTS ('x')`,
  },
  {
    name: 'add check constraint',
    build: () => g.addCheckConstraintSql(ref, { name: 'positive_amount', expression: 'amount > 0' }),
    expected: `ALTER TABLE ${R} ADD CONSTRAINT \`positive_amount\` CHECK (amount > 0)`,
  },
  {
    name: 'drop constraint',
    build: () => g.dropConstraintSql(ref, 'positive_amount'),
    expected: `ALTER TABLE ${R} DROP CONSTRAINT \`positive_amount\``,
  },
  {
    name: 'set row filter',
    build: () => g.setRowFilterSql(ref, { functionName: 'main.sec.region`f', columns: ['region', 'sp ace'] }),
    expected: `ALTER TABLE ${R} SET ROW FILTER \`main\`.\`sec\`.\`region\`\`f\` ON (\`region\`, \`sp ace\`)`,
  },
  { name: 'drop row filter', build: () => g.dropRowFilterSql(ref), expected: `ALTER TABLE ${R} DROP ROW FILTER` },
  {
    name: 'set column mask using columns',
    build: () =>
      g.setColumnMaskSql(ref, { column: 'ssn', functionName: 'main.sec.mask_ssn', usingColumns: ['region'] }),
    expected: `ALTER TABLE ${R} ALTER COLUMN \`ssn\` SET MASK \`main\`.\`sec\`.\`mask_ssn\` USING COLUMNS (\`region\`)`,
  },
  {
    name: 'set column mask',
    build: () => g.setColumnMaskSql(ref, { column: 'ssn', functionName: 'main.sec.mask_ssn', usingColumns: [] }),
    expected: `ALTER TABLE ${R} ALTER COLUMN \`ssn\` SET MASK \`main\`.\`sec\`.\`mask_ssn\``,
  },
  {
    name: 'drop column mask',
    build: () => g.dropColumnMaskSql(ref, 'ssn'),
    expected: `ALTER TABLE ${R} ALTER COLUMN \`ssn\` DROP MASK`,
  },
  {
    name: 'table tags query',
    build: () => g.tagsQuerySql(table),
    expected:
      "SELECT tag_name, tag_value FROM `we``ird`.information_schema.table_tags WHERE catalog_name = 'we`ird' AND schema_name = 'sp ace.dot' AND table_name = 'q\\'uo\"te' ORDER BY tag_name",
  },
  {
    name: 'catalog tags query',
    build: () => g.tagsQuerySql(catalog),
    expected:
      "SELECT tag_name, tag_value FROM `we``ird`.information_schema.catalog_tags WHERE catalog_name = 'we`ird' ORDER BY tag_name",
  },
  {
    name: 'column tags query',
    build: () => g.columnTagsQuerySql({ catalog: 'main', schema: 'sales', name: 'Orders' }),
    expected:
      "SELECT column_name, tag_name, tag_value FROM `main`.information_schema.column_tags WHERE catalog_name = 'main' AND schema_name = 'sales' AND table_name = 'orders' ORDER BY column_name, tag_name",
  },
  {
    name: 'table stats at a version',
    build: () => stats.tableStatsSql(ref, ['id', 'a`b'], { version: 2 }),
    expected: `SELECT count(*) AS row_count, count_if(\`id\` IS NULL) AS n0, count_if(\`a\`\`b\` IS NULL) AS n1 FROM ${R} VERSION AS OF 2`,
  },
  {
    name: 'table checksum',
    build: () =>
      stats.tableChecksumSql(ref, [
        { name: 'id', type: 'bigint' },
        { name: 'm', type: 'map' },
      ]),
    expected: `SELECT concat(CAST(count(*) AS STRING), ':', CAST(coalesce(sum(CAST(xxhash64(\`id\` IS NULL, \`id\`, \`m\` IS NULL, array_sort(map_entries(\`m\`))) AS DECIMAL(38,0))), 0) AS STRING)) AS checksum FROM ${R}`,
  },
  {
    name: 'schema probe at a timestamp',
    build: () => stats.schemaProbeSql(ref, { timestamp: '2026-01-01' }),
    expected: `SELECT * FROM ${R} TIMESTAMP AS OF '2026-01-01' LIMIT 0`,
  },
];
