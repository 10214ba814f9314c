import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Express } from 'express';
import request from 'supertest';
import { normaliseAlias, normaliseAliasSql } from '../../activities/mdm/logic/reference';
import { createApp } from '../../api/app';
import { LocalWorkspace } from '../../platform/local/workspace';
import type { Store } from '../../store/db';
import { testAppDeps } from '../api/deps';
import { createTestStore } from '../helpers/db';

let store: Store;
let ws: LocalWorkspace;
let root: string;
let app: Express;
beforeAll(async () => {
  store = await createTestStore();
  root = mkdtempSync(path.join(os.tmpdir(), 'lw-mdm-ref-'));
  ws = new LocalWorkspace({ root, user: 'lakeward' });
  await ws.createCatalog({ name: 'clone_audit', ifNotExists: true });
  app = createApp(testAppDeps({ store, open: async () => ws }));
});
afterAll(async () => {
  await store?.close();
  rmSync(root, { recursive: true, force: true });
});

const resolve = async (domain: string, value: string, as_of?: string) =>
  (await request(app).get(`/api/mdm/reference-data/${domain}/resolve`).query({ value, as_of }).expect(200)).body;

test('built-in ISO 3166-1 and ISO 4217; "U.S.A." and "US" compare equal', async () => {
  const list = await request(app).get('/mdm/reference-data').expect(200);
  const byName = Object.fromEntries(list.body.map((d: { name: string; code_count: number }) => [d.name, d]));
  expect(byName.iso_3166_1).toMatchObject({ builtin: true, code_count: 250 });
  expect(byName.iso_4217.code_count).toBeGreaterThan(150);
  expect(normaliseAlias('U.S.A.')).toBe(normaliseAlias('usa'));
  for (const v of ['U.S.A.', 'US', 'usa', 'United States of America', '840'])
    expect((await resolve('iso_3166_1', v)).code).toBe('US');
  expect((await resolve('iso_3166_1', 'Deutschland')).code).toBeNull();
  expect((await resolve('iso_4217', 'Euro')).code).toBe('EUR');
  expect((await resolve('iso_4217', '978')).code).toBe('EUR');
});

test('add and patch codes: a parent must exist; a duplicate code or an alias of another code is a 409', async () => {
  await request(app)
    .post('/api/mdm/reference-data/region')
    .send({ code: 'EMEA', aliases: ['Europe Middle East Africa'] })
    .expect(201);
  const bad = await request(app)
    .post('/api/mdm/reference-data/region')
    .send({ code: 'DACH', parent: 'EUROPE' })
    .expect(422);
  expect(bad.body.error.details[0].path).toBe('body.parent');
  await request(app)
    .post('/api/mdm/reference-data/region')
    .send({ code: 'DACH', parent: 'EMEA', aliases: ['D-A-CH'] })
    .expect(201);
  await request(app).post('/api/mdm/reference-data/region').send({ code: 'DACH' }).expect(409);
  const clash = await request(app)
    .post('/mdm/reference-data/region')
    .send({ code: 'CEE', aliases: ['dach'] })
    .expect(409);
  expect(clash.body.error.message).toMatch(/already an alias of DACH/);
  await request(app).patch('/api/mdm/reference-data/region/DACH').send({ valid_to: '2020-01-01' }).expect(200);
  expect(await resolve('region', 'd a ch', '2019-06-01')).toMatchObject({ code: 'DACH', valid: true });
  expect(await resolve('region', 'd a ch', '2021-06-01')).toMatchObject({ code: 'DACH', valid: false });
});

test('CSV import (RFC 4180, quoted alias lists) reports per line and feeds the SQL mapping table', async () => {
  const csv = [
    'code,description,aliases,valid_from,parent',
    'NA,North America,"North America, N. America",2000-01-01,',
    'US-EAST,US East,"East Coast, ""Eastern US""",2000-01-01,NA',
    'NA,again,,2000-01-01,',
    'APAC,Asia Pacific,"east coast",,',
    ',no code,,,',
    'LATAM,Latin America,,01/02/2003,',
    'MX,Mexico,,,NOWHERE',
  ].join('\r\n');
  const r = await request(app)
    .post('/api/mdm/reference-data/market/import')
    .set('Content-Type', 'text/csv')
    .send(csv)
    .expect(200);
  expect(r.body).toMatchObject({
    domain: 'market',
    created: 2,
    updated: 0,
    failed: 5,
    mapping_table: 'clone_audit.mdm.reference_aliases',
  });
  expect(r.body.lines.map((l: { line: number; status: string }) => [l.line, l.status])).toEqual([
    [2, 'created'],
    [3, 'created'],
    [4, 'conflict'],
    [5, 'conflict'],
    [6, 'invalid'],
    [7, 'invalid'],
    [8, 'invalid'],
  ]);
  const domain = await request(app).get('/api/mdm/reference-data/market').expect(200);
  expect(domain.body.codes.find((c: { code: string }) => c.code === 'US-EAST')).toMatchObject({
    parent: 'NA',
    aliases: ['East Coast', '"Eastern US"'],
  });
  // Ingest can standardise codes in SQL: the mapping table maps normalised aliases to codes.
  const rows = await ws.query(
    `SELECT code FROM clone_audit.mdm.reference_aliases WHERE domain = 'iso_3166_1' AND alias = ${normaliseAliasSql("'U.S.A.'")}`,
  );
  expect(rows.rows).toEqual([{ code: 'US' }]);
  const json = await request(app)
    .post('/api/mdm/reference-data/market/import')
    .send({ csv: 'code,description\nNA,North America (NA)' })
    .expect(200);
  expect(json.body).toMatchObject({ created: 0, updated: 1, failed: 0 });
});
