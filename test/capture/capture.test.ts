import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Express } from 'express';
import request from 'supertest';
import { createApp } from '../../api/app';
import type { AppDeps } from '../../api/deps';
import { LocalWorkspace } from '../../platform/local/workspace';
import type { Store } from '../../store/db';
import { testAppDeps } from '../api/deps';
import { createTestStore } from '../helpers/db';

/** Live capture on the local lakehouse: init, frames into the volume and the Delta table, the recent list. */
let store: Store;
let root: string;
let ws: LocalWorkspace;
let deps: AppDeps;
let app: Express;
let stub: Server;
const stubBodies: Record<string, unknown>[] = [];
const JPEG = readFileSync(path.join(__dirname, 'fixtures/frame.jpg'));
const VOL = { catalog: 'cam', schema: 's', name: 'demo_unstructured' };

beforeAll(async () => {
  store = await createTestStore();
  root = mkdtempSync(path.join(os.tmpdir(), 'lw-capture-'));
  ws = new LocalWorkspace({ root, user: 'lakeward' });
  await ws.createCatalog({ name: 'cam' });
  await ws.createSchema({ catalog: 'cam', name: 's' });
  deps = testAppDeps({ store, flags: { dataDir: root }, open: async () => ws });
  stub = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      stubBodies.push(JSON.parse(body) as Record<string, unknown>);
      const fields = {
        caption: 'A test card with colour bars and a moving gradient shown on a small screen today',
        alt_text: 'Colour bars',
        summary: 'Colour bars fill the frame. A gradient runs below. Numbers count up. A fourth sentence.',
        tags: ['test card', 'colour bars', 'gradient'],
        detected_text: '',
        scene_category: 'test pattern screen',
      };
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id: 'c',
          object: 'chat.completion',
          created: 0,
          model: 'vision',
          choices: [
            { index: 0, finish_reason: 'stop', message: { role: 'assistant', content: JSON.stringify(fields) } },
          ],
        }),
      );
    });
  });
  await new Promise<void>((r) => stub.listen(0, '127.0.0.1', r));
  deps.config.ai.local_serving_endpoints = { vision: `http://127.0.0.1:${(stub.address() as AddressInfo).port}/v1` };
  app = createApp(deps);
}, 60_000);

afterAll(async () => {
  await new Promise((r) => stub?.close(r));
  await ws?.close();
  await store?.close();
  rmSync(root, { recursive: true, force: true });
});

const frame = (fields: Record<string, string>, file: Buffer | null = JPEG, model?: string) => {
  let r = request(app).post('/api/capture/frame');
  if (model) r = r.set('X-Databricks-Model', model);
  for (const [k, v] of Object.entries({ catalog: 'cam', schema: 's', ...fields })) r = r.field(k, v);
  return file ? r.attach('file', file, 'frame.jpg') : r;
};
const words = (s: string) => s.split(/\s+/).filter(Boolean).length;

test('init twice: the volume and table are created once; the repeat writes no table version', async () => {
  const first = await request(app).post('/api/capture/init').send({ catalog: 'cam', schema: 's' });
  expect(first.status).toBe(200);
  expect(first.body).toMatchObject({ created_volume: true, created_table: true, added_columns: [] });
  const ref = { catalog: 'cam', schema: 's', name: 'demo_capture_catalog' };
  const versions = (await ws.tableHistory(ref)).length;
  const again = await request(app).post('/api/capture/init').send({ catalog: 'cam', schema: 's' });
  expect(again.body).toEqual({
    volume: 'cam.s.demo_unstructured',
    table: 'cam.s.demo_capture_catalog',
    created_volume: false,
    created_table: false,
    added_columns: [],
  });
  expect(await ws.tableHistory(ref)).toHaveLength(versions);
});

test('an old-shape table gains exactly its missing columns in one ADD COLUMNS', async () => {
  const ref = { catalog: 'cam', schema: 's', name: 'old_caps' };
  await ws.createTable({
    ref,
    columns: ['capture_id', 'capture_type', 'file_path', 'session_id'].map((name) => ({ name, type: 'string' })),
  });
  const res = await request(app)
    .post('/api/capture/init')
    .send({ catalog: 'cam', schema: 's', table_name: 'old_caps' });
  expect(res.body.created_table).toBe(false);
  expect(res.body.added_columns).toEqual([
    'file_extension',
    'size_bytes',
    'width',
    'height',
    'duration_ms',
    'mime_type',
    'industry',
    'caption',
    'alt_text',
    'summary',
    'tags',
    'detected_text',
    'scene_category',
    'content_full',
    'captured_at',
    'submitted_by',
    'content',
    'metadata_json',
    'description_style',
  ]);
  const history = await ws.tableHistory(ref);
  expect(history).toHaveLength(2);
  expect(history[0].operation).toBe('ADD COLUMNS');
  expect((await ws.describeTable(ref)).columns.find((c) => c.name === 'content')?.type).toBe('binary');
});

test('a JPEG: a byte-identical volume file and one row with its bytes, size and template fields', async () => {
  const res = await frame({ capture_type: 'photo', session_id: 'sess-1' });
  expect(res.status).toBe(201);
  expect(res.body).toMatchObject({
    capture_type: 'photo',
    mime_type: 'image/jpeg',
    width: 64,
    height: 48,
    size_bytes: JPEG.length,
    description_style: 'strict',
    submitted_by: null,
    source: 'template',
    detected_text: '',
  });
  const rel = res.body.file_path.replace('/Volumes/cam/s/demo_unstructured/', '');
  expect(Buffer.compare(await ws.readVolumeFile(VOL, rel), JPEG)).toBe(0);
  const rows = await ws.query(
    `SELECT hex(content) AS h, width, session_id FROM cam.s.demo_capture_catalog WHERE capture_id = '${res.body.capture_id}'`,
  );
  expect(rows.rows).toEqual([{ h: JPEG.toString('hex').toUpperCase(), width: 64, session_id: 'sess-1' }]);
  expect(words(res.body.caption)).toBeLessThanOrEqual(14);
  expect(words(res.body.alt_text)).toBeLessThanOrEqual(18);
  expect(res.body.summary.match(/[.!?](\s|$)/g)).toHaveLength(2);
  expect(res.body.tags.split(', ').length).toBeGreaterThanOrEqual(5);
  expect(words(res.body.scene_category)).toBeLessThanOrEqual(2);
});

test('description_style vivid is stored as strict', async () => {
  const res = await frame({ capture_type: 'photo', session_id: 'sess-2', description_style: 'vivid' });
  expect(res.body.description_style).toBe('strict');
  const rows = await ws.query(
    `SELECT description_style FROM cam.s.demo_capture_catalog WHERE capture_id = '${res.body.capture_id}'`,
  );
  expect(rows.rows).toEqual([{ description_style: 'strict' }]);
});

test('a failed insert leaves no file in the volume', async () => {
  const before = (await ws.listVolumeFiles(VOL)).map((f) => f.path);
  await ws.createTable({
    ref: { catalog: 'cam', schema: 's', name: 'narrow' },
    columns: [{ name: 'x', type: 'string' }],
  });
  const res = await frame({ capture_type: 'photo', table_name: 'narrow' });
  expect(res.status).toBe(400);
  expect(res.body.error.message).toMatch(/has no column capture_id/);
  expect((await ws.listVolumeFiles(VOL)).map((f) => f.path)).toEqual(before);
});

test('the bytes decide the kind: a JPEG as video is 415, an empty file 400, over 25 MB 413', async () => {
  const video = await frame({ capture_type: 'video' });
  expect(video.status).toBe(415);
  expect(video.body.error.details[0].path).toBe('body.file');
  const empty = await frame({ capture_type: 'photo' }, Buffer.alloc(0));
  expect(empty.status).toBe(400);
  const big = await frame({ capture_type: 'photo' }, Buffer.concat([JPEG, Buffer.alloc(25 * 1024 * 1024)]));
  expect(big.status).toBe(413);
});

test('with a vision model: one multimodal call per photo, its JSON clipped to the limits and charged', async () => {
  stubBodies.length = 0;
  const res = await frame({ capture_type: 'photo', session_id: 'sess-3', max_tokens: '400' }, JPEG, 'vision');
  expect(res.status).toBe(201);
  expect(stubBodies).toHaveLength(1);
  const user = (stubBodies[0].messages as { role: string; content: unknown }[])[1];
  expect(JSON.stringify(user.content)).toContain(`data:image/jpeg;base64,${JPEG.toString('base64')}`);
  expect(res.body).toMatchObject({ source: 'serving_endpoint', ai: { tokens_charged: 400, calls: 1 } });
  expect(words(res.body.caption)).toBe(14);
  expect(res.body.summary).toBe('Colour bars fill the frame. A gradient runs below. Numbers count up.');
  expect(res.body.tags.split(', ')).toHaveLength(5);
  expect(res.body.scene_category).toBe('test pattern');
});

test('recent: newest first, one session on request, never the content column', async () => {
  const all = await request(app).get('/api/capture/recent').query({ catalog: 'cam', schema: 's' });
  expect(all.status).toBe(200);
  const sessions = all.body.captures.map((c: { session_id: string }) => c.session_id);
  expect(sessions).toEqual(['sess-3', 'sess-2', 'sess-1']);
  expect(Object.keys(all.body.captures[0])).not.toContain('content');
  const one = await request(app)
    .get('/api/capture/recent')
    .query({ catalog: 'cam', schema: 's', session_id: 'sess-2' });
  expect(one.body.captures).toHaveLength(1);
  const none = await request(app).get('/api/capture/recent').query({ catalog: 'cam', schema: 's', table_name: 'nope' });
  expect(none.body).toEqual({ captures: [] });
});
