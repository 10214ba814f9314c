import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import type { Express } from 'express';
import request from 'supertest';
import { BUILTIN_REPORTS } from '../../activities/mdm/logic/report-defs';
import { slaDueAt } from '../../activities/mdm/logic/sla';
import { createApp } from '../../api/app';
import { openCases, resolveCase } from '../../store/mdm/cases';
import { putModel, recordMdmAudit } from '../../store/mdm/repo';
import { ensureDomain, putCode } from '../../store/mdm/reference';
import { createNegativeMatchRule } from '../../store/mdm/rules';
import { jobQueueWorkflowId } from '../../workflows/jobs/definitions';
import { testAppDeps } from '../api/deps';
import { createHarness, eventually, type Harness } from '../helpers/harness';

let h: Harness;
let app: Express;
let tmp: string;

const ts = `CAST('2026-11-01 00:00:00' AS TIMESTAMP)`;

/** A small published entity type: golden records, members, source records and scored pairs. */
async function seedLakehouse(root: string) {
  const ws = h.open(root);
  await ws.createCatalog({ name: 'clone_audit', ifNotExists: true });
  await ws.createSchema({ catalog: 'clone_audit', name: 'mdm', ifNotExists: true });
  const t = (name: string) => ({ catalog: 'clone_audit', schema: 'mdm', name });
  await ws.createTableAs({
    ref: t('golden_records_person'),
    query: [
      ['GR-1', 'active', 2, "'ann'", "'yes'"],
      ['GR-2', 'under_review', 2, "'bob'", 'NULL'],
      ['GR-3', 'active', 1, 'NULL', "'no'"],
    ]
      .map(
        ([id, status, n, name, consent]) =>
          `SELECT '${id}' AS entity_id, 'person' AS entity_type, '${status}' AS status, FALSE AS reviewable, ` +
          `CAST(97 AS DOUBLE) AS confidence_score, CAST(${n} AS BIGINT) AS record_count, CAST(${name} AS STRING) AS name, ` +
          `CAST(NULL AS STRING) AS name__source, CAST(${consent} AS STRING) AS marketing_consent, ` +
          `CAST(NULL AS STRING) AS marketing_consent__source, CAST(NULL AS STRING) AS merged_into, ${ts} AS created_at, ` +
          `${ts} AS updated_at, 'r1' AS run_id`,
      )
      .join(' UNION ALL '),
  });
  await ws.createTableAs({
    ref: t('source_records_person'),
    query: [
      ['crm', '1', "'ann'", 'FALSE'],
      ['crm', '2', 'NULL', 'FALSE'],
      ['erp', '1', "'ann'", 'TRUE'],
    ]
      .map(
        ([s, r, name, del]) =>
          `SELECT '${s}' AS system, '${r}' AS record_id, 1 AS trust, ${ts} AS source_updated_at, CAST(${name} AS STRING) AS name, ` +
          `CAST(NULL AS STRING) AS marketing_consent, 'h' AS row_hash, ${del} AS deleted, 'i' AS ingest_id, ${ts} AS changed_at, ${ts} AS ingested_at`,
      )
      .join(' UNION ALL '),
  });
  await ws.createTableAs({
    ref: t('match_pairs_person'),
    query:
      `SELECT 'crm:1' AS uid_l, 'erp:1' AS uid_r, 'dob' AS rule, CAST(98 AS DOUBLE) AS score UNION ALL ` +
      `SELECT 'crm:2', 'erp:2', 'dob', CAST(60 AS DOUBLE) UNION ALL SELECT 'crm:3', 'erp:3', 'email', CAST(80 AS DOUBLE)`,
  });
}

beforeAll(async () => {
  h = await createHarness('mdm-reports');
  tmp = mkdtempSync(path.join(os.tmpdir(), 'lw-mdm-reports-'));
  const root = h.config.workspace.root;
  await seedLakehouse(root);
  const db = h.store.db;
  await putModel(db, 'person', { entity_type: 'person' });
  const { opened } = await openCases(
    db,
    [
      { entity_type: 'person', type: 'match_review', records: [{ system: 'crm', record_id: '1' }] },
      { entity_type: 'person', type: 'suspected_duplicate', records: [{ system: 'crm', record_id: '2' }] },
    ],
    slaDueAt(''),
  );
  await resolveCase(db, opened[0], 'steward-bot', { action: 'approve_match' });
  await recordMdmAudit(db, {
    actor: 'steward-bot',
    action: 'case_approve_match',
    objectType: 'case',
    objectId: opened[0],
  });
  await createNegativeMatchRule(db, {
    entityType: 'person',
    type: 'pair',
    members: [],
    predicate: null,
    reason: 'twins',
    status: 'active',
    createdBy: 'steward-bot',
  });
  await ensureDomain(db, 'region', null);
  await putCode(db, { domain: 'region', code: 'EMEA', aliases: [] }, ['EMEA']);
  await putCode(db, { domain: 'region', code: 'DACH', aliases: [], parent: 'EMEA' }, ['DACH']);
  const temporal = { client: h.env.client, connection: h.env.client.connection, address: 'test' };
  const deps = testAppDeps({
    store: h.store,
    temporal,
    flags: { dataDir: h.config.data_dir },
    env: { LAKEWARD_TASK_QUEUE: h.taskQueue },
    open: async () => h.open(root),
  });
  app = createApp(deps);
}, 120_000);
afterAll(async () => {
  await h.env.client.workflow
    .getHandle(jobQueueWorkflowId('mdm_report', h.taskQueue))
    .terminate('test over')
    .catch(() => undefined);
  await h?.teardown();
  rmSync(tmp, { recursive: true, force: true });
});

async function run(name: string, body: Record<string, unknown> = {}) {
  const started = await request(app).post(`/api/mdm/reports/${name}/run`).send(body).expect(202);
  const id = started.body.report_id as string;
  return eventually(
    async () => {
      const r = await request(app).get(`/mdm/reports/runs/${id}`).expect(200);
      if (!r.body.completed_at) throw new Error(`${name} is ${r.body.status}`);
      return r.body;
    },
    { timeoutMs: 60_000, intervalMs: 200, what: `report ${name} to end` },
  );
}

const download = async (id: string, format: string) =>
  (
    await request(app)
      .get(`/api/mdm/reports/runs/${id}/download`)
      .query({ format })
      .buffer(true)
      .parse((res, cb) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => cb(null, Buffer.concat(chunks)));
      })
      .expect(200)
  ).body as Buffer;

test('every built-in report runs as a job; its CSV equals its JSON; the PDF passes pdftotext; PNG and HTML render the chart', async () => {
  const list = await request(app).get('/api/mdm/reports').expect(200);
  expect(list.body.filter((r: { origin: string }) => r.origin === 'builtin')).toHaveLength(10);
  expect(list.body.map((r: { name: string }) => r.name)).toContain('golden_by_status');
  await h.withWorker(async () => {
    for (const b of BUILTIN_REPORTS) {
      const done = await run(b.name, { from: '2000-01-01', to: '2100-01-01' });
      expect({ name: b.name, status: done.status, error: done.error }).toEqual({
        name: b.name,
        status: 'completed',
        error: null,
      });
      const rows = done.result.rows as Record<string, unknown>[];
      expect({ name: b.name, rows: rows.length > 0 }).toEqual({ name: b.name, rows: true });
      const json = JSON.parse((await download(done.report_id, 'json')).toString('utf8'));
      const csv = parse((await download(done.report_id, 'csv')).toString('utf8'), { columns: true }) as Record<
        string,
        string
      >[];
      const asText = json.rows.map((r: Record<string, unknown>) =>
        Object.fromEntries(json.columns.map((c: string) => [c, r[c] === null ? '' : String(r[c])])),
      );
      expect(csv).toEqual(asText);
      const pdf = path.join(tmp, `${b.name}.pdf`);
      writeFileSync(pdf, await download(done.report_id, 'pdf'));
      const text = execFileSync('pdftotext', [pdf, '-'], { encoding: 'utf8' });
      expect(text).toContain(b.title);
      expect(text).toContain(json.columns[0]);
      const png = await download(done.report_id, 'png');
      expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
      const html = (await download(done.report_id, 'html')).toString('utf8');
      expect(html).toMatch(/<svg[\s\S]*<\/svg>/);
      expect(html).not.toMatch(/<(script|link|img)\b/);
    }
    const byStatus = await run('consolidation_summary');
    expect(byStatus.result.rows).toEqual([
      { entity_type: 'person', status: 'active', golden_records: 2, source_records: 3 },
      { entity_type: 'person', status: 'under_review', golden_records: 1, source_records: 2 },
    ]);
  });
}, 240_000);

test('custom reports: one read-only SELECT with parameters bound by type', async () => {
  const yaml = [
    'name: confident_records',
    'title: Confident golden records',
    'parameters:',
    '  floor: { type: number, default: 90 }',
    '  status: { type: string, default: active }',
    'sql: SELECT entity_id FROM clone_audit.mdm.golden_records_person WHERE confidence_score >= {floor} AND status = {status} ORDER BY entity_id',
    'viz: { type: bar, x: entity_id, y: entity_id }',
  ].join('\n');
  await request(app).post('/api/mdm/reports').send({ yaml }).expect(201);
  const bad = await request(app)
    .post('/api/mdm/reports')
    .send({ name: 'evil', title: 'x', sql: 'SELECT 1; DROP TABLE clone_audit.mdm.golden_records_person' })
    .expect(422);
  expect(bad.body.error.details[0].path).toBe('body.sql');
  await request(app).post('/api/mdm/reports').send({ name: 'evil2', title: 'x', sql: 'DELETE FROM t' }).expect(422);
  await request(app)
    .post('/api/mdm/reports/confident_records/run')
    .send({ parameters: { floor: 'ninety' } })
    .expect(422);
  await h.withWorker(async () => {
    // A quote in a string parameter stays a value.
    const none = await run('confident_records', { parameters: { status: "active' OR '1'='1" } });
    expect(none.result.rows).toEqual([]);
    const two = await run('confident_records', { parameters: { floor: 50 } });
    expect(two.result.rows).toEqual([{ entity_id: 'GR-1' }, { entity_id: 'GR-3' }]);
    const cfg = await run('golden_by_status');
    expect(cfg.status).toBe('completed');
  });
}, 120_000);
