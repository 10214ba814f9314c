import * as ddl from '../../platform/databricks/sql/ddl';
import * as disc from '../../platform/databricks/sql/discovery';
import * as dml from '../../platform/databricks/sql/dml';
import * as ops from '../../platform/databricks/sql/delta-ops';
import { governanceCases } from './golden-governance-cases';

/**
 * Every statement builder with its exact expected text. Shared by the golden test (text equality) and
 * the sqlglot test (each statement must parse in the Databricks dialect). Names are deliberately hostile.
 */
export interface GoldenCase {
  name: string;
  build: () => string;
  expected: string;
}

export const TICK = 'we`ird'; // backtick inside a name
export const SPACEDOT = 'sp ace.dot'; // space and dot
export const QUOTES = `q'uo"te`; // both quote characters
export const UNI = 'ünï©ødé_表'; // non-ASCII
export const HOSTILE_TEXT = "it's a \\ back\nslash\ttab"; // quote, backslash, newline, tab

export const t = { catalog: TICK, schema: SPACEDOT, name: QUOTES };
export const T_SQL = '`we``ird`.`sp ace.dot`.`q\'uo"te`';
export const u = { catalog: 'main', schema: 'sales', name: UNI };
export const U_SQL = '`main`.`sales`.`ünï©ødé_表`';
export const HOSTILE_LIT = "'it\\'s a \\\\ back\\nslash\\ttab'";

export const ddlCases: GoldenCase[] = [
  {
    name: 'create catalog with managed location and comment',
    build: () =>
      ddl.createCatalogSql({ name: TICK, managedLocation: "s3://b/it's", comment: HOSTILE_TEXT, ifNotExists: true }),
    expected: `CREATE CATALOG IF NOT EXISTS \`we\`\`ird\` MANAGED LOCATION 's3://b/it\\'s' COMMENT ${HOSTILE_LIT}`,
  },
  {
    name: 'create catalog plain',
    build: () => ddl.createCatalogSql({ name: UNI }),
    expected: 'CREATE CATALOG `ünï©ødé_表`',
  },
  {
    name: 'drop catalog cascade',
    build: () => ddl.dropCatalogSql(TICK, { cascade: true, ifExists: true }),
    expected: 'DROP CATALOG IF EXISTS `we``ird` CASCADE',
  },
  {
    name: 'create schema',
    build: () => ddl.createSchemaSql({ catalog: TICK, name: SPACEDOT, comment: 'c', ifNotExists: true }),
    expected: "CREATE SCHEMA IF NOT EXISTS `we``ird`.`sp ace.dot` COMMENT 'c'",
  },
  {
    name: 'drop schema',
    build: () => ddl.dropSchemaSql(TICK, QUOTES, { cascade: true }),
    expected: 'DROP SCHEMA `we``ird`.`q\'uo"te` CASCADE',
  },
  {
    name: 'create or replace view',
    build: () =>
      ddl.createViewSql({
        ref: t,
        definition: 'SELECT a FROM main.sales.orders;',
        comment: HOSTILE_TEXT,
        replace: true,
      }),
    expected: `CREATE OR REPLACE VIEW ${T_SQL} COMMENT ${HOSTILE_LIT} AS SELECT a FROM main.sales.orders`,
  },
  {
    name: 'create SQL function',
    build: () =>
      ddl.createFunctionSql({
        ref: u,
        parameters: 'ssn STRING, amount DECIMAL(10,2)',
        returnType: 'STRING',
        body: "concat('***', right(ssn, 4))",
        comment: 'mask',
        replace: true,
      }),
    expected: `CREATE OR REPLACE FUNCTION ${U_SQL}(ssn STRING, amount DECIMAL(10,2)) RETURNS STRING COMMENT 'mask' RETURN concat('***', right(ssn, 4))`,
  },
  {
    name: 'create managed volume',
    build: () => ddl.createVolumeSql({ ref: t, comment: 'raw', ifNotExists: true }),
    expected: `CREATE VOLUME IF NOT EXISTS ${T_SQL} COMMENT 'raw'`,
  },
  {
    name: 'create external volume',
    build: () => ddl.createVolumeSql({ ref: u, volumeType: 'EXTERNAL', storageLocation: 's3://bucket/v' }),
    expected: `CREATE EXTERNAL VOLUME ${U_SQL} LOCATION 's3://bucket/v'`,
  },
  {
    name: 'drop volume',
    build: () => ddl.dropObjectSql('VOLUME', t, { ifExists: true }),
    expected: `DROP VOLUME IF EXISTS ${T_SQL}`,
  },
  { name: 'drop view', build: () => ddl.dropObjectSql('VIEW', t), expected: `DROP VIEW ${T_SQL}` },
  {
    name: 'drop function',
    build: () => ddl.dropObjectSql('FUNCTION', u, { ifExists: true }),
    expected: `DROP FUNCTION IF EXISTS ${U_SQL}`,
  },
  {
    name: 'drop table',
    build: () => ddl.dropObjectSql('TABLE', t, { ifExists: true }),
    expected: `DROP TABLE IF EXISTS ${T_SQL}`,
  },
  {
    name: 'create table with every clause',
    build: () =>
      ddl.createTableSql({
        ref: t,
        columns: [
          { name: 'id', type: 'bigint', nullable: false, comment: HOSTILE_TEXT },
          { name: 'a`b c', type: 'decimal(10,2)' },
          { name: 'tags', type: 'map<string,int>' },
        ],
        partitionColumns: ['a`b c'],
        comment: 'orders',
        properties: { 'delta.enableChangeDataFeed': 'true' },
        location: 's3://x/y',
      }),
    expected: `CREATE TABLE ${T_SQL} (\`id\` bigint NOT NULL COMMENT ${HOSTILE_LIT}, \`a\`\`b c\` decimal(10,2), \`tags\` map<string,int>) USING DELTA PARTITIONED BY (\`a\`\`b c\`) LOCATION 's3://x/y' COMMENT 'orders' TBLPROPERTIES ('delta.enableChangeDataFeed' = 'true')`,
  },
];

export const opsCases: GoldenCase[] = [
  {
    name: 'deep clone at a version with properties',
    build: () =>
      ops.cloneTableSql({
        source: u,
        target: t,
        cloneType: 'DEEP',
        version: 12,
        properties: { owner_note: HOSTILE_TEXT },
      }),
    expected: `CREATE OR REPLACE TABLE ${T_SQL} DEEP CLONE ${U_SQL} VERSION AS OF 12 TBLPROPERTIES ('owner_note' = ${HOSTILE_LIT})`,
  },
  {
    name: 'shallow clone at a timestamp, if not exists, external location',
    build: () =>
      ops.cloneTableSql({
        source: u,
        target: t,
        cloneType: 'SHALLOW',
        timestamp: '2026-01-02 03:04:05',
        replace: false,
        location: 's3://b/t',
      }),
    expected: `CREATE TABLE IF NOT EXISTS ${T_SQL} SHALLOW CLONE ${U_SQL} TIMESTAMP AS OF '2026-01-02 03:04:05' LOCATION 's3://b/t'`,
  },
  {
    name: 'select-based copy with a predicate',
    build: () => ops.copyTableSql({ source: u, target: t, version: 3, where: "region = 'EU'", properties: { a: 'b' } }),
    expected: `CREATE OR REPLACE TABLE ${T_SQL} TBLPROPERTIES ('a' = 'b') AS SELECT * FROM ${U_SQL} VERSION AS OF 3 WHERE region = 'EU'`,
  },
  {
    name: 'create table as select',
    build: () => ops.createTableAsSql({ ref: t, query: 'SELECT 1 AS x', comment: 'c', replace: true }),
    expected: `CREATE OR REPLACE TABLE ${T_SQL} COMMENT 'c' AS SELECT 1 AS x`,
  },
  {
    name: 'restore to version',
    build: () => ops.restoreTableSql(t, { version: 4 }),
    expected: `RESTORE TABLE ${T_SQL} TO VERSION AS OF 4`,
  },
  {
    name: 'restore to timestamp',
    build: () => ops.restoreTableSql(u, { timestamp: "2026-01-01'" }),
    expected: `RESTORE TABLE ${U_SQL} TO TIMESTAMP AS OF '2026-01-01\\''`,
  },
  { name: 'optimize', build: () => ops.optimizeSql(t), expected: `OPTIMIZE ${T_SQL}` },
  { name: 'vacuum', build: () => ops.vacuumSql(t), expected: `VACUUM ${T_SQL}` },
  {
    name: 'vacuum retain dry run',
    build: () => ops.vacuumSql(t, { retentionHours: 168, dryRun: true }),
    expected: `VACUUM ${T_SQL} RETAIN 168 HOURS DRY RUN`,
  },
  { name: 'convert to delta', build: () => ops.convertToDeltaSql(u), expected: `CONVERT TO DELTA ${U_SQL}` },
  {
    name: 'enable UniForm',
    build: () => ops.enableUniformSql(t),
    expected: `ALTER TABLE ${T_SQL} SET TBLPROPERTIES ('delta.enableIcebergCompatV2' = 'true', 'delta.universalFormat.enabledFormats' = 'iceberg')`,
  },
  {
    name: 'reorg upgrade uniform',
    build: () => ops.reorgUpgradeUniformSql(t),
    expected: `REORG TABLE ${T_SQL} APPLY (UPGRADE UNIFORM(ICEBERG_COMPAT_VERSION=2))`,
  },
  { name: 'reorg purge', build: () => ops.reorgPurgeSql(u), expected: `REORG TABLE ${U_SQL} APPLY (PURGE)` },
  {
    name: 'table_changes with quoted name inside the string',
    build: () => ops.tableChangesSql(t, 2, 5),
    expected: "SELECT * FROM table_changes('`we``ird`.`sp ace.dot`.`q\\'uo\"te`', 2, 5) ORDER BY _commit_version",
  },
  {
    name: 'insert rows',
    build: () =>
      dml.insertRowsSql(t, [
        { id: 1, 'a`b': HOSTILE_TEXT },
        { id: 2n, flag: true, at: new Date('2026-01-02T03:04:05.000Z') },
      ]),
    expected: `INSERT INTO ${T_SQL} (\`id\`, \`a\`\`b\`, \`flag\`, \`at\`) VALUES (1, ${HOSTILE_LIT}, NULL, NULL), (2L, NULL, TRUE, TIMESTAMP '2026-01-02T03:04:05.000Z')`,
  },
  {
    name: 'insert nested values',
    build: () => dml.insertRowsSql(u, [{ xs: [1, 2.5], s: { k: 'v' }, b: Buffer.from([0xca, 0xfe]) }]),
    expected: `INSERT INTO ${U_SQL} (\`xs\`, \`s\`, \`b\`) VALUES (array(1, 2.5D), named_struct('k', 'v'), X'CAFE')`,
  },
  {
    name: 'insert query',
    build: () => dml.insertQuerySql(t, 'SELECT * FROM main.sales.orders'),
    expected: `INSERT INTO ${T_SQL} SELECT * FROM main.sales.orders`,
  },
  {
    name: 'overwrite query',
    build: () => dml.overwriteQuerySql(t, 'SELECT 1'),
    expected: `INSERT OVERWRITE ${T_SQL} SELECT 1`,
  },
  {
    name: 'delete where',
    build: () => dml.deleteWhereSql(t, "note = 'a;b'"),
    expected: `DELETE FROM ${T_SQL} WHERE note = 'a;b'`,
  },
  {
    name: 'update where',
    build: () => dml.updateWhereSql(t, { 'sp ace': "upper('x')", n: 'n + 1' }, 'id > 3'),
    expected: `UPDATE ${T_SQL} SET \`sp ace\` = upper('x'), \`n\` = n + 1 WHERE id > 3`,
  },
  {
    name: 'merge changes by key',
    build: () =>
      dml.mergeChangesSql(
        t,
        {
          upserts: [
            { 'i d': 1, note: "it's" },
            { 'i d': 2, note: null },
          ],
          deletes: [{ 'i d': 3 }],
        },
        ['i d'],
      ),
    expected:
      `MERGE INTO ${T_SQL} AS t USING (SELECT * FROM VALUES ('upsert', 1, 'it\\'s'), ('upsert', 2, NULL), ('delete', 3, NULL) ` +
      'AS s(`_lakeward_merge`, `i d`, `note`)) AS s ON t.`i d` = s.`i d` ' +
      "WHEN MATCHED AND s.`_lakeward_merge` = 'delete' THEN DELETE " +
      'WHEN MATCHED THEN UPDATE SET t.`i d` = s.`i d`, t.`note` = s.`note` ' +
      "WHEN NOT MATCHED AND s.`_lakeward_merge` = 'upsert' THEN INSERT (`i d`, `note`) VALUES (s.`i d`, s.`note`)",
  },
];

export const discoveryCases: GoldenCase[] = [
  {
    name: 'list catalogs',
    build: () => disc.listCatalogsSql(),
    expected:
      'SELECT catalog_name, catalog_owner, comment, created FROM system.information_schema.catalogs ORDER BY catalog_name',
  },
  {
    name: 'list schemas',
    build: () => disc.listSchemasSql(TICK),
    expected:
      "SELECT catalog_name, schema_name, schema_owner, comment FROM `we``ird`.information_schema.schemata WHERE schema_name <> 'information_schema' ORDER BY schema_name",
  },
  {
    name: 'list tables',
    build: () => disc.listTablesSql(TICK, "O'Brien"),
    expected:
      "SELECT table_catalog, table_schema, table_name, table_type, data_source_format, table_owner, comment, created, last_altered FROM `we``ird`.information_schema.tables WHERE table_schema = 'o\\'brien' AND table_type NOT IN ('VIEW', 'MATERIALIZED_VIEW', 'STREAMING_TABLE', 'FOREIGN') ORDER BY table_name",
  },
  {
    name: 'find table',
    build: () => disc.findTableSql(u),
    expected:
      "SELECT table_catalog, table_schema, table_name, table_type, data_source_format, table_owner, comment, created, last_altered FROM `main`.information_schema.tables WHERE table_schema = 'sales' AND table_name = 'ünï©ødé_表'",
  },
  {
    name: 'list columns',
    build: () => disc.listColumnsSql(u),
    expected:
      "SELECT column_name, full_data_type, is_nullable, comment, ordinal_position, partition_index FROM `main`.information_schema.columns WHERE table_schema = 'sales' AND table_name = 'ünï©ødé_表' ORDER BY ordinal_position",
  },
  {
    name: 'list views',
    build: () => disc.listViewsSql('main', 'sales'),
    expected:
      "SELECT v.table_catalog, v.table_schema, v.table_name, v.view_definition, t.table_owner, t.comment FROM `main`.information_schema.views v JOIN `main`.information_schema.tables t ON t.table_schema = v.table_schema AND t.table_name = v.table_name WHERE v.table_schema = 'sales' ORDER BY v.table_name",
  },
  {
    name: 'list routines',
    build: () => disc.listRoutinesSql('main', 'sales'),
    expected:
      "SELECT routine_catalog, routine_schema, routine_name, specific_name, full_data_type, routine_definition, comment FROM `main`.information_schema.routines WHERE routine_schema = 'sales' AND routine_body = 'SQL' ORDER BY routine_name",
  },
  {
    name: 'list parameters',
    build: () => disc.listParametersSql('main', 'sales'),
    expected:
      "SELECT specific_name, parameter_name, full_data_type, ordinal_position FROM `main`.information_schema.parameters WHERE specific_schema = 'sales' ORDER BY specific_name, ordinal_position",
  },
  {
    name: 'list volumes',
    build: () => disc.listVolumesSql('main', 'sales'),
    expected:
      "SELECT volume_catalog, volume_schema, volume_name, volume_type, storage_location, volume_owner, comment FROM `main`.information_schema.volumes WHERE volume_schema = 'sales' ORDER BY volume_name",
  },
  {
    name: 'describe history',
    build: () => disc.describeHistorySql(t, 10),
    expected: `DESCRIBE HISTORY ${T_SQL} LIMIT 10`,
  },
  { name: 'describe detail', build: () => disc.describeDetailSql(t), expected: `DESCRIBE DETAIL ${T_SQL}` },
  { name: 'show tblproperties', build: () => disc.showTblPropertiesSql(u), expected: `SHOW TBLPROPERTIES ${U_SQL}` },
  {
    name: 'show grants',
    build: () => disc.showGrantsSql('TABLE', '`a`.`b`.`c`'),
    expected: 'SHOW GRANTS ON TABLE `a`.`b`.`c`',
  },
];

export const allCases: GoldenCase[] = [...ddlCases, ...opsCases, ...discoveryCases, ...governanceCases];
