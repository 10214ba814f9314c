import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureRecordsTable, ingestSource } from '../../activities/mdm/ingest';
import { syntheticModel, syntheticSources } from '../../activities/mdm/logic/synthetic-model';
import { LocalWorkspace } from '../../platform/local/workspace';
import type { Workspace } from '../../platform/port';
import type { MdmModel, MdmSource } from '../../schemas/mdm';

let root: string;
let ws: Workspace;
const model: MdmModel = syntheticModel();
const [crm, erp, web] = syntheticSources('raw', 'people');
const RECORDS = 'clone_audit.mdm.source_records_person';

/** One person written by each system in its own format, plus rows that exercise skips and duplicate keys. */
beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), 'lw-mdm-ingest-'));
  ws = new LocalWorkspace({ root, user: 'lakeward' });
  await ws.createCatalog({ name: 'raw' });
  await ws.createSchema({ catalog: 'raw', name: 'people' });
  const s = (name: string) => ({ name, type: 'string' });
  const table = async (name: string, columns: { name: string; type: string }[], rows: Record<string, unknown>[]) => {
    await ws.createTable({ ref: { catalog: 'raw', schema: 'people', name }, columns });
    await ws.insertRows({ catalog: 'raw', schema: 'people', name }, rows);
  };
  await table(
    'crm_customers',
    [s('cust_id'), s('given_name'), s('family_name'), { name: 'birth_date', type: 'date' }, s('email_address')].concat([
      s('phone'),
      s('zip'),
      s('national_id'),
      { name: 'updated_at', type: 'timestamp' },
    ]),
    [
      {
        cust_id: 'C1',
        given_name: "Mary-Ann  O'Brien",
        family_name: 'Smith',
        birth_date: '1980-03-04',
        email_address: ' Mary.Smith@Example.com ',
        phone: '+1 (555) 123-4567',
        zip: '02139',
        national_id: '123-45-6789',
        updated_at: '2025-01-01T00:00:00Z',
      },
      { cust_id: 'C2', given_name: 'Gone', family_name: 'Soon', updated_at: '2025-01-01T00:00:00Z' },
    ],
  );
  await table(
    'erp_parties',
    [
      { name: 'party_no', type: 'bigint' },
      s('fname'),
      s('lname'),
      s('dob'),
      s('email'),
      s('tel'),
      s('postal_code'),
    ].concat([s('tax_id'), { name: 'modified_at', type: 'timestamp' }]),
    [
      {
        party_no: 7,
        fname: 'MARY',
        lname: 'SMITH',
        dob: '03/04/1980',
        tel: '555.123.4567',
        modified_at: '2025-02-01T00:00:00Z',
      },
      { party_no: 7, fname: 'OLD', lname: 'SMITH', dob: '03/04/1980', modified_at: '2020-01-01T00:00:00Z' },
      { party_no: 8, modified_at: '2025-02-01T00:00:00Z' },
    ],
  );
  await table(
    'web_users',
    [s('user_key'), s('first_name'), s('last_name'), s('date_of_birth'), s('mail'), s('mobile'), s('zip_code')].concat([
      { name: 'last_login', type: 'timestamp' },
    ]),
    [
      { user_key: 'u1', first_name: 'mary', last_name: 'smith', date_of_birth: '19800304', mobile: '5551234567' },
      { user_key: null, first_name: 'no', last_name: 'key' },
      { user_key: '  ', first_name: 'blank', last_name: 'key' },
    ],
  );
  expect(await ensureRecordsTable(ws, 'clone_audit', model)).toBe(true);
  expect(await ensureRecordsTable(ws, 'clone_audit', model)).toBe(false);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const ingest = (source: MdmSource, ingestId: string, ts: string) =>
  ingestSource(ws, { ingestId, catalog: 'clone_audit', model, source, ts });
const rows = async (where = 'TRUE') =>
  (await ws.query(`SELECT * FROM ${RECORDS} WHERE ${where} ORDER BY system, record_id`)).rows;

test('each source reports rows read, skipped with the reason, and duplicate keys (the latest row wins)', async () => {
  const T1 = '2026-01-01T00:00:00Z';
  expect(await ingest(crm, 'i1', T1)).toEqual({
    system: 'crm',
    rows_read: 2,
    rows_written: 2,
    skipped: {},
    duplicate_keys: 0,
    changed: 2,
    vanished: 0,
  });
  expect(await ingest(erp, 'i1', T1)).toEqual({
    system: 'erp',
    rows_read: 3,
    rows_written: 1,
    skipped: { 'no attribute values': 1 },
    duplicate_keys: 1,
    changed: 1,
    vanished: 0,
  });
  expect(await ingest(web, 'i1', T1)).toEqual({
    system: 'web',
    rows_read: 3,
    rows_written: 1,
    skipped: { 'missing key': 2 },
    duplicate_keys: 0,
    changed: 1,
    vanished: 0,
  });
  const erpRow = (await rows(`system = 'erp'`))[0];
  expect(erpRow.first_name).toBe('mary');
});

test('one person in three formats standardises to the same values', async () => {
  const people = await rows(`last_name = 'smith'`);
  expect(people.map((r) => `${r.system}/${r.record_id}`)).toEqual(['crm/C1', 'erp/7', 'web/u1']);
  for (const r of people) {
    expect(r.dob).toBe('1980-03-04');
    expect(r.phone).toBe('5551234567');
  }
  const c1 = people[0];
  expect(c1.first_name).toBe('maryann obrien');
  expect(c1.email).toBe('mary.smith@example.com');
  expect(c1.national_id).toBe('123456789');
  expect(c1.zip).toBe('02139');
  expect(c1.trust).toBe(90);
  expect(people[2].trust).toBe(50);
});

test('a second ingest keeps unchanged records unchanged, sees a changed one and marks a vanished key deleted', async () => {
  const before = (await rows(`system = 'crm' AND record_id = 'C1'`))[0];
  await ws.deleteWhere({ catalog: 'raw', schema: 'people', name: 'crm_customers' }, `cust_id = 'C2'`);
  await ws.updateWhere(
    { catalog: 'raw', schema: 'people', name: 'web_users' },
    { zip_code: `'10001'` },
    `user_key = 'u1'`,
  );
  const T2 = '2026-01-02T00:00:00Z';
  expect(await ingest(crm, 'i2', T2)).toMatchObject({ rows_read: 1, rows_written: 1, changed: 0, vanished: 1 });
  expect(await ingest(web, 'i2', T2)).toMatchObject({ rows_read: 3, rows_written: 1, changed: 1, vanished: 0 });
  const c1 = (await rows(`system = 'crm' AND record_id = 'C1'`))[0];
  expect(c1.changed_at).toEqual(before.changed_at);
  expect(c1.ingest_id).toBe('i2');
  const c2 = await rows(`system = 'crm' AND record_id = 'C2'`);
  expect(c2).toHaveLength(1);
  expect(c2[0].deleted).toBe(true);
  const u1 = await rows(`system = 'web'`);
  expect(u1).toHaveLength(1);
  expect(u1[0].zip).toBe('10001');
  expect(new Date(String(u1[0].changed_at)).toISOString()).toBe('2026-01-02T00:00:00.000Z');
  // A retried attempt of the same ingest writes the same rows once.
  expect(await ingest(web, 'i2', T2)).toMatchObject({ rows_written: 1 });
  expect(await rows(`system = 'web'`)).toHaveLength(1);
});

test('a missing source column is a failure naming the source, table and column', async () => {
  const bad = { ...web, columns: { ...web.columns, zip: 'postcode' } };
  await expect(ingest(bad, 'i3', '2026-01-03T00:00:00Z')).rejects.toThrow(
    /source web: raw.people.web_users has no column postcode/,
  );
});
