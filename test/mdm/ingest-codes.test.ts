import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureRecordsTable, ingestSource } from '../../activities/mdm/ingest';
import { normaliseAlias } from '../../activities/mdm/logic/reference';
import { LocalWorkspace } from '../../platform/local/workspace';
import { MdmModelSchema, type MdmSource } from '../../schemas/mdm';

let root: string;
let ws: LocalWorkspace;

const model = MdmModelSchema.parse({
  entity_type: 'supplier',
  attributes: { name: { kind: 'name' }, country: { kind: 'code', domain: 'iso_3166_1' } },
  blocking_rules: [{ name: 'country', keys: ['country'] }],
});
const source: MdmSource = {
  system: 'erp',
  entity_type: 'supplier',
  table_fqn: 'raw.s.suppliers',
  key_column: 'id',
  columns: { name: 'supplier_name', country: 'ctry' },
  trust: 50,
  updated_at_column: null,
} as MdmSource;

beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), 'lw-mdm-codes-'));
  ws = new LocalWorkspace({ root, user: 'lakeward' });
  for (const c of ['raw', 'clone_audit']) await ws.createCatalog({ name: c, ifNotExists: true });
  await ws.createSchema({ catalog: 'raw', name: 's' });
  await ws.createSchema({ catalog: 'clone_audit', name: 'mdm' });
  // reference_aliases as reference data writes it: normalised aliases, validity per code
  const alias = (a: string, code: string, from: string | null = null, to: string | null = null) =>
    `SELECT 'iso_3166_1' AS domain, '${normaliseAlias(a)}' AS alias, '${code}' AS code, ` +
    `CAST(${from ? `'${from}'` : 'NULL'} AS DATE) AS valid_from, CAST(${to ? `'${to}'` : 'NULL'} AS DATE) AS valid_to`;
  await ws.createTableAs({
    ref: { catalog: 'clone_audit', schema: 'mdm', name: 'reference_aliases' },
    query: [
      alias('US', 'US'),
      alias('USA', 'US'),
      alias('United States of America', 'US'),
      alias('Österreich', 'AT'),
      alias('YU', 'YU', null, '2003-02-04'),
      alias('SS', 'SS', '2011-07-09'),
    ].join(' UNION ALL '),
  });
  await ws.createTable({
    ref: { catalog: 'raw', schema: 's', name: 'suppliers' },
    columns: ['id', 'supplier_name', 'ctry'].map((name) => ({ name, type: 'string' })),
  });
  await ws.insertRows({ catalog: 'raw', schema: 's', name: 'suppliers' }, [
    { id: '1', supplier_name: 'Acme', ctry: 'U.S.A.' },
    { id: '2', supplier_name: 'Acme Inc', ctry: ' usa ' },
    { id: '3', supplier_name: 'Acme US', ctry: 'United States of America' },
    { id: '4', supplier_name: 'Wien GmbH', ctry: 'OSTERREICH' },
    { id: '5', supplier_name: 'Beograd', ctry: 'YU' },
    { id: '6', supplier_name: 'Narnia Ltd', ctry: 'Narnia' },
    { id: '7', supplier_name: 'Juba Co', ctry: 'ss' },
    { id: '8', supplier_name: 'Nowhere', ctry: null },
  ]);
  await ensureRecordsTable(ws, 'clone_audit', model);
});
afterAll(async () => {
  await ws?.close();
  rmSync(root, { recursive: true, force: true });
});

test('code attributes are standardised through reference_aliases valid on the ingest day; unknown codes are counted and left empty', async () => {
  const summary = await ingestSource(ws, {
    ingestId: 'i1',
    catalog: 'clone_audit',
    model,
    source,
    ts: '2026-11-24T10:00:00Z',
  });
  expect(summary).toMatchObject({ rows_read: 8, rows_written: 8, unknown_codes: 2 });
  const rows = await ws.query(
    'SELECT record_id, country FROM clone_audit.mdm.source_records_supplier WHERE NOT deleted ORDER BY record_id',
  );
  expect(Object.fromEntries(rows.rows.map((r) => [r.record_id, r.country]))).toEqual({
    '1': 'US',
    '2': 'US',
    '3': 'US',
    '4': 'AT', // accents dropped on both sides: Österreich = OSTERREICH
    '5': null, // Yugoslavia's code ended in 2003
    '6': null, // no such alias
    '7': 'SS', // valid since 2011
    '8': null, // no value: not an unknown code
  });

  // the day counts: in 2001 YU was valid and SS was not yet
  const old = await ingestSource(ws, {
    ingestId: 'i2',
    catalog: 'clone_audit',
    model,
    source,
    ts: '2001-01-01T00:00:00Z',
  });
  expect(old.unknown_codes).toBe(2);
  const then = await ws.query(
    "SELECT record_id, country FROM clone_audit.mdm.source_records_supplier WHERE NOT deleted AND record_id IN ('5', '7') ORDER BY record_id",
  );
  expect(then.rows.map((r) => r.country)).toEqual(['YU', null]);
});

test('a model with a code attribute names the missing domain, and a domain on another kind is refused', () => {
  const noDomain = MdmModelSchema.safeParse({ ...model, attributes: { country: { kind: 'code' } } });
  expect(noDomain.error?.issues.map((i) => i.path.join('.'))).toEqual(['attributes.country.domain']);
  const stray = MdmModelSchema.safeParse({
    ...model,
    attributes: { ...model.attributes, name: { kind: 'name', domain: 'x' } },
  });
  expect(stray.error?.issues.map((i) => i.path.join('.'))).toEqual(['attributes.name.domain']);
});
