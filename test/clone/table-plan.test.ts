import { applyCloneDefaults } from '../../schemas/clone';
import { planTableCopy } from '../../activities/clone/table-plan';

const opts = (extra: Record<string, unknown> = {}) =>
  applyCloneDefaults({ source_catalog: 'prod', destination_catalog: 'dev', ...extra } as never);
const source = { catalog: 'prod', schema: 's', name: 't' };
const target = { catalog: 'dev', schema: 's', name: 't' };
const plan = (extra: Record<string, unknown>, more: Partial<Parameters<typeof planTableCopy>[0]> = {}) =>
  planTableCopy({
    source,
    target,
    format: 'DELTA',
    options: opts(extra),
    crossWorkspace: false,
    currentVersion: 7,
    ...more,
  });

describe('per-table copy plan', () => {
  test('a deep clone is pinned to the source version it read, with clone_tbl_properties', () => {
    const p = plan({ clone_tbl_properties: { owner_team: 'data' } });
    expect(p.method).toBe('clone');
    expect(p.statements).toEqual([
      "CREATE OR REPLACE TABLE `dev`.`s`.`t` DEEP CLONE `prod`.`s`.`t` VERSION AS OF 7 TBLPROPERTIES ('owner_team' = 'data')",
    ]);
  });

  test('as_of_timestamp wins over the pinned version', () => {
    expect(plan({ clone_type: 'SHALLOW', as_of_timestamp: '2026-01-01T00:00:00Z' }).statements[0]).toBe(
      "CREATE OR REPLACE TABLE `dev`.`s`.`t` SHALLOW CLONE `prod`.`s`.`t` TIMESTAMP AS OF '2026-01-01T00:00:00Z'",
    );
  });

  test('where_clauses force a select-based copy on DEEP and are ignored with a warning on SHALLOW', () => {
    const deep = plan({ where_clauses: { '*': "region = 'EU'" } });
    expect(deep.method).toBe('select-copy');
    expect(deep.statements[0]).toBe(
      "CREATE OR REPLACE TABLE `dev`.`s`.`t` AS SELECT * FROM `prod`.`s`.`t` VERSION AS OF 7 WHERE region = 'EU'",
    );
    const shallow = plan({ clone_type: 'SHALLOW', where_clauses: { t: 'x > 1' } });
    expect(shallow.method).toBe('clone');
    expect(shallow.warnings[0]).toMatch(/where_clauses ignored for a SHALLOW clone/);
  });

  test('target_format ICEBERG sets UniForm on Delta sources and warns for others', () => {
    const delta = plan({ target_format: 'ICEBERG' });
    expect(delta.uniform).toBe(true);
    expect(delta.statements[1]).toMatch(/'delta.universalFormat.enabledFormats' = 'iceberg'/);
    const parquet = plan({ target_format: 'ICEBERG' }, { format: 'PARQUET' });
    expect(parquet.uniform).toBe(false);
    expect(parquet.warnings).toEqual(
      expect.arrayContaining([expect.stringMatching(/ICEBERG skipped for a PARQUET source/)]),
    );
  });

  test('iceberg_physical copies by CTAS and ignores time travel with a warning', () => {
    const p = plan({ target_format: 'ICEBERG', iceberg_physical: true, as_of_version: 3 });
    expect(p.method).toBe('iceberg-ctas');
    expect(p.at).toBeUndefined();
    expect(p.statements[0]).toBe('CREATE OR REPLACE TABLE `dev`.`s`.`t` USING ICEBERG AS SELECT * FROM `prod`.`s`.`t`');
    expect(p.warnings[0]).toMatch(/ignored for a physical Iceberg copy/);
  });

  test('a non-Delta source is copied with a select, with a warning', () => {
    const p = plan({}, { format: 'PARQUET' });
    expect(p.method).toBe('select-copy');
    expect(p.warnings[0]).toMatch(/PARQUET source copied with a select-based copy/);
  });

  test('across workspaces the table is copied by reading rows, also for SHALLOW', () => {
    const p = plan({ clone_type: 'SHALLOW' }, { crossWorkspace: true });
    expect(p.method).toBe('cross-copy');
    expect(p.warnings[0]).toMatch(/copies the data/);
  });
});
