import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Express } from 'express';
import request from 'supertest';
import { createApp } from '../../api/app';
import { exportNotebookSource, importNotebookSource } from '../../activities/workbench/logic/notebook-source';
import { harnessAppDeps } from '../helpers/harness-app';
import { createHarness, eventually, type Harness } from '../helpers/harness';

/** Notebooks through the HTTP API: optimistic saves, 50 undo steps, Databricks source export/import, runs. */
let h: Harness;
let app: Express;
const GOLDEN = readFileSync(path.join(__dirname, 'golden/sales-review.sql'), 'utf8');

beforeAll(async () => {
  h = await createHarness('workbench-notebooks');
  const root = h.config.workspace.root;
  const ws = h.open(root);
  await ws.createCatalog({ name: 'wb' });
  await ws.createSchema({ catalog: 'wb', name: 's' });
  await ws.createTableAs({
    ref: { catalog: 'wb', schema: 's', name: 'orders' },
    query: "SELECT id, CASE WHEN id % 3 = 0 THEN 'EU' ELSE 'US' END AS region FROM range(300) AS t(id)",
  });
  app = createApp(harnessAppDeps(h));
}, 120_000);
afterAll(async () => h?.teardown());

const N = '/api/notebooks';
const sqlCell = (content: string) => ({ type: 'sql', content });

async function createNotebook(title: string, cells: object[] = []) {
  return (await request(app).post(N).send({ title, cells }).expect(201)).body;
}
function save(id: string, version: number, body: object) {
  return request(app).put(`${N}/${id}`).set('If-Match', String(version)).send(body);
}

describe('saving', () => {
  it('needs the current version in If-Match: missing or stale is a 409, and an unchanged save adds nothing', async () => {
    const nb = await createNotebook('optimistic', [sqlCell('SELECT 1')]);
    expect(nb).toMatchObject({ version: 1, can_undo: false, can_redo: false });
    await request(app).put(`${N}/${nb.id}`).send({ title: 'x', cells: [] }).expect(409);
    const saved = (await save(nb.id, 1, { title: 'edited', cells: nb.cells }).expect(200)).body;
    expect(saved).toMatchObject({ title: 'edited', version: 2, can_undo: true });
    const stale = await save(nb.id, 1, { title: 'from another tab', cells: nb.cells }).expect(409);
    expect(stale.body.error.details[0]).toMatchObject({ path: 'headers.if-match', message: 'current version is 2' });
    const same = (await save(nb.id, 2, { title: 'edited', cells: saved.cells }).expect(200)).body;
    expect(same.version).toBe(2);
    expect(saved.cells[0].id).toBe(nb.cells[0].id);
  });

  it('55 edits then 50 undos restore the state after the 5th edit; a 51st undo is a 409; redo goes forward', async () => {
    const nb = await createNotebook('undo', [sqlCell('SELECT 0')]);
    let version = nb.version;
    for (let i = 1; i <= 55; i++) {
      version = (await save(nb.id, version, { title: 'undo', cells: [sqlCell(`SELECT ${i}`)] }).expect(200)).body
        .version;
    }
    let last;
    for (let i = 0; i < 50; i++) last = (await request(app).post(`${N}/${nb.id}/undo`).expect(200)).body;
    expect(last.cells[0].content).toBe('SELECT 5');
    expect(last.can_undo).toBe(false);
    const refused = await request(app).post(`${N}/${nb.id}/undo`).expect(409);
    expect(refused.body.error.code).toBe('NOTHING_TO_UNDO');
    const redone = (await request(app).post(`${N}/${nb.id}/redo`).expect(200)).body;
    expect(redone.cells[0].content).toBe('SELECT 6');
    // A save after undo drops the undone revisions: nothing left to redo.
    const after = (await save(nb.id, redone.version, { title: 'undo', cells: [sqlCell('SELECT 99')] }).expect(200))
      .body;
    expect(after.can_redo).toBe(false);
    await request(app).post(`${N}/${nb.id}/redo`).expect(409);
  });
});

describe('Databricks SQL notebook source', () => {
  it('imports the golden file and exports it byte for byte; export → import → export is identical', async () => {
    const imported = (await request(app).post(`${N}/import`).send({ source: GOLDEN }).expect(201)).body;
    expect(imported.title).toBe('Sales review');
    expect(imported.cells.map((c: { type: string }) => c.type)).toEqual(['markdown', 'sql', 'sql']);
    expect(imported.cells[1]).toMatchObject({
      content: 'SELECT region, count(*) AS orders\nFROM wb.s.orders\nGROUP BY region',
      speaker_notes: 'EU should lead.\nMention the outlier.',
    });
    const exported = await request(app).post(`${N}/${imported.id}/export`).expect(200);
    expect(exported.headers['content-type']).toMatch(/^text\/plain/);
    expect(exported.text).toBe(GOLDEN);
    const again = (await request(app).post(`${N}/import`).send({ source: exported.text }).expect(201)).body;
    expect((await request(app).post(`${N}/${again.id}/export`).expect(200)).text).toBe(GOLDEN);
  });

  it('round-trips cells with empty content, blank markdown lines and CRLF input', () => {
    const cells = [
      { type: 'sql' as const, content: '', speaker_notes: '' },
      { type: 'markdown' as const, content: 'a\n\nb', speaker_notes: 'n' },
    ];
    const text = exportNotebookSource(cells);
    expect(importNotebookSource(text)).toEqual(cells);
    expect(importNotebookSource(text.replace(/\n/g, '\r\n'))).toEqual(cells);
  });

  it('refuses a file that is not a notebook source', async () => {
    const res = await request(app).post(`${N}/import`).send({ source: 'SELECT 1' }).expect(400);
    expect(res.body.error.details[0].path).toBe('body.source');
  });
});

describe('running', () => {
  it('runs one cell and keeps its output (state, columns, the first 100 rows) in the notebook', async () => {
    const nb = await createNotebook('one cell', [sqlCell('SELECT id FROM wb.s.orders ORDER BY id')]);
    const res = (await request(app).post(`${N}/${nb.id}/cells/${nb.cells[0].id}/run`).send({}).expect(200)).body;
    expect(res.statement.status.state).toBe('SUCCEEDED');
    expect(res.notebook.cells[0].output).toMatchObject({ state: 'SUCCEEDED', row_count: 300, truncated: true });
    expect(res.notebook.cells[0].output.rows).toHaveLength(100);
    const history = (await request(app).get('/api/sql/history').expect(200)).body.history;
    expect(history[0].source).toBe(`notebook:${nb.id}/${nb.cells[0].id}`);
  });

  it('run all with a failing middle cell: succeeded, failed, skipped', async () => {
    const nb = await createNotebook('run all', [
      sqlCell('SELECT count(*) AS n FROM wb.s.orders'),
      { type: 'markdown', content: '# between' },
      sqlCell('SELECT no_such_column FROM wb.s.orders'),
      sqlCell('SELECT 1 AS one'),
    ]);
    const job = await h.withWorker(async () => {
      const started = (await request(app).post(`${N}/${nb.id}/run`).send({}).expect(202)).body;
      return eventually(
        async () => {
          const j = (await request(app).get(`/api/jobs/${started.job_id}`).expect(200)).body;
          return j.completed_at ? j : null;
        },
        { what: 'the notebook run to end', timeoutMs: 60_000 },
      );
    });
    expect(job.status).toBe('failed');
    expect(job.result.cells.map((c: { status: string }) => c.status)).toEqual(['succeeded', 'failed', 'skipped']);
    const after = (await request(app).get(`${N}/${nb.id}`).expect(200)).body;
    expect(after.cells[0].output).toMatchObject({ state: 'SUCCEEDED', rows: [['300']] });
    expect(after.cells[2].output).toMatchObject({ state: 'FAILED' });
    expect(after.cells[3].output).toBeNull();
  });
});
