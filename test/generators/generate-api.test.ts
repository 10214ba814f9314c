import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Express } from 'express';
import request from 'supertest';
import { createApp } from '../../api/app';
import { startServer, type RunningServer } from '../../api/server';
import type { Workspace } from '../../platform/port';
import { testAppDeps } from '../api/deps';
import { createHarness, eventually, type Harness } from '../helpers/harness';

/** The generators through the HTTP API and a real worker, on a local lakehouse with real Delta tables. */
let h: Harness;
let app: Express;
let ws: Workspace;
let deps: ReturnType<typeof testAppDeps>;
const VOLUME = { catalog: 'gen', schema: 'demo_unstructured', name: 'demo_unstructured' };
const table = (name: string) => ({ catalog: 'gen', schema: 'demo_unstructured', name });

beforeAll(async () => {
  h = await createHarness('generators');
  ws = h.open(h.config.workspace.root);
  await ws.createCatalog({ name: 'gen' });
  const temporal = { client: h.env.client, connection: h.env.client.connection, address: 'test' };
  deps = testAppDeps({
    store: h.store,
    temporal,
    flags: { dataDir: h.config.data_dir },
    env: { LAKEWARD_TASK_QUEUE: h.taskQueue },
    open: async () => h.open(h.config.workspace.root),
  });
  app = createApp(deps);
}, 120_000);
afterAll(async () => h?.teardown());

async function runJob(kind: string, body: object) {
  return h.withWorker(async () => {
    const started = (await request(app).post(`/api/generate/demo-${kind}`).send(body).expect(202)).body;
    return eventually(
      async () => {
        const j = (await request(app).get(`/api/jobs/${started.job_id}`).expect(200)).body;
        return j.completed_at ? j : null;
      },
      { what: `the ${kind} generator job to end`, timeoutMs: 90_000 },
    );
  });
}

/** sha256 of every file under `<kind>/` of the volume, by path. */
async function fileHashes(kind: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const f of await ws.listVolumeFiles(VOLUME))
    if (f.path.startsWith(`${kind}/`))
      out[f.path] = createHash('sha256')
        .update(await ws.readVolumeFile(VOLUME, f.path))
        .digest('hex');
  return out;
}
const countByType = (paths: string[]) =>
  paths.reduce<Record<string, number>>((acc, p) => ((acc[p.split('/')[1]] = (acc[p.split('/')[1]] ?? 0) + 1), acc), {});

describe('documents', () => {
  const body = {
    catalog: 'gen',
    counts: { pdf: 2, docx: 1, pptx: 1, xlsx: 2, eml: 3 },
    seed: 99,
    as_of: '2026-02-01',
  };

  it('writes exactly the counts asked, one catalog row per file; a repeat with replace is byte-identical', async () => {
    const job = await runJob('documents', body);
    expect(job.status).toBe('completed');
    expect(job.result).toMatchObject({
      files_written: 9,
      rows_committed: 9,
      table: 'gen.demo_unstructured.demo_documents_catalog',
    });
    const first = await fileHashes('documents');
    expect(countByType(Object.keys(first))).toEqual(body.counts);
    const rows = (
      await ws.query('SELECT file_path, sha256, size_bytes FROM gen.demo_unstructured.demo_documents_catalog')
    ).rows;
    expect(rows).toHaveLength(9);
    for (const r of rows) {
      const rel = String(r.file_path).replace('/Volumes/gen/demo_unstructured/demo_unstructured/', '');
      expect(first[rel]).toBe(r.sha256);
    }
    const again = await runJob('documents', { ...body, if_exists: 'replace' });
    expect(again.status).toBe('completed');
    expect(await fileHashes('documents')).toEqual(first);
    const n = (await ws.query('SELECT count(*) AS n FROM gen.demo_unstructured.demo_documents_catalog')).rows[0].n;
    expect(Number(n)).toBe(9);
    // Nothing of the run's staging is left in the volume.
    expect((await ws.listVolumeFiles(VOLUME)).filter((f) => f.path.startsWith('_lakeward_staging'))).toEqual([]);
  }, 180_000);

  it('if_exists fail with the table there is a 409 before anything is queued', async () => {
    const res = await request(app).post('/api/generate/demo-documents').send(body).expect(409);
    expect(res.body.error.message).toContain('demo_documents_catalog exists');
  });

  it('replace with fewer items removes the files (and rows) of the old run', async () => {
    const job = await runJob('documents', { ...body, counts: { eml: 1 }, if_exists: 'replace' });
    expect(job.status).toBe('completed');
    expect(Object.keys(await fileHashes('documents'))).toEqual(['documents/eml/eml-s99-00001.eml']);
    const rows = (await ws.query('SELECT file_name FROM gen.demo_unstructured.demo_documents_catalog')).rows;
    expect(rows).toEqual([{ file_name: 'eml-s99-00001.eml' }]);
  }, 120_000);
});

describe('media, knowledge and code', () => {
  it('every type writes exactly its count (code: one folder per repository)', async () => {
    const media = await runJob('media', { catalog: 'gen', counts: { png: 2, wav: 2, mp4: 1 }, destination: 'volume' });
    expect(media.status).toBe('completed');
    expect(countByType(Object.keys(await fileHashes('media')))).toEqual({ png: 2, wav: 2, mp4: 1 });
    expect(await ws.tableExists(table('demo_media_catalog'))).toBe(false);
    const kb = await runJob('knowledge', { catalog: 'gen', counts: { article: 2, faq: 1, glossary: 3 } });
    expect(countByType(Object.keys(await fileHashes('knowledge')))).toEqual({ article: 2, faq: 1, glossary: 3 });
    expect(kb.result.rows_committed).toBe(6);
    expect(kb.result.ai).toMatchObject({ budget: 50_000, tokens_charged: 0, calls: 0, source: 'template' });
    const usage = (await request(app).get(`/api/ai/usage/${kb.result.ai.usage_id}`).expect(200)).body;
    expect(usage).toMatchObject({ budget: 50_000, tokens_charged: 0 });
    const code = await runJob('code', {
      catalog: 'gen',
      counts: { python: 2, javascript: 1, java: 1 },
      ai_token_budget: 0,
    });
    expect(code.result.ai).toMatchObject({ budget: 0, calls: 0 });
    expect(code.status).toBe('completed');
    const repos = new Set(Object.keys(await fileHashes('code')).map((p) => p.split('/').slice(0, 3).join('/')));
    expect(countByType([...repos])).toEqual({ python: 2, javascript: 1, java: 1 });
  }, 240_000);
});

describe('logs', () => {
  it('catalog rows carry line_count; the direct table has one Log line row per line with exactly its columns', async () => {
    const files = await runJob('logs', {
      catalog: 'gen',
      counts: { nginx_access: 2, syslog: 1 },
      lines_per_file: 25,
      days_back: 2,
    });
    expect(files.result).toMatchObject({ files_written: 3, lines_written: 75, rows_committed: 3 });
    const counts = (await ws.query('SELECT line_count FROM gen.demo_unstructured.demo_logs_catalog')).rows;
    expect(counts.map((r) => Number(r.line_count))).toEqual([25, 25, 25]);
    const text = (await ws.readVolumeFile(VOLUME, 'logs/syslog/syslog-s42-00001.log')).toString();
    expect(text.split('\n').filter(Boolean)).toHaveLength(25);
    // Each row's size and sha256 are those of its file in the volume (the nginx files were streamed by the threads).
    const listed = await ws.query(
      'SELECT file_type, file_name, size_bytes, sha256 FROM gen.demo_unstructured.demo_logs_catalog ORDER BY file_name',
    );
    for (const r of listed.rows) {
      const bytes = await ws.readVolumeFile(VOLUME, `logs/${r.file_type}/${r.file_name}`);
      expect({ size: Number(r.size_bytes), sha256: r.sha256 }).toEqual({
        size: bytes.length,
        sha256: createHash('sha256').update(bytes).digest('hex'),
      });
    }
    // On disk (listings hide them): no temporary file is left beside the whole ones.
    expect(readdirSync((await ws.localVolumeFolder(VOLUME, 'logs/nginx_access'))!).sort()).toEqual([
      'nginx_access-s42-00001.log',
      'nginx_access-s42-00002.log',
    ]);

    const direct = await runJob('logs', {
      catalog: 'gen',
      destination: 'direct_table',
      counts: { app_json: 1, otel_trace: 2 },
      lines_per_file: 10,
    });
    expect(direct.result).toMatchObject({
      files_written: 0,
      rows_committed: 30,
      table: 'gen.demo_unstructured.demo_logs',
    });
    const cols = (await ws.describeTable(table('demo_logs'))).columns.map((c) => `${c.name} ${c.type}`);
    expect(cols).toEqual([
      'log_id string',
      'log_type string',
      'service string',
      'ts timestamp',
      'level string',
      'message string',
      'attrs map<string,string>',
      'generated_at timestamp',
    ]);
    const byType = (
      await ws.query(
        'SELECT log_type, count(*) AS n FROM gen.demo_unstructured.demo_logs GROUP BY log_type ORDER BY log_type',
      )
    ).rows;
    expect(byType.map((r) => [r.log_type, Number(r.n)])).toEqual([
      ['app_json', 10],
      ['otel_trace', 20],
    ]);
  }, 180_000);
});

describe('cancel', () => {
  it('a cancelled run commits no row (none without its file) and leaves no staging behind', async () => {
    await ws.createCatalog({ name: 'gen_cancel' });
    const vol = { catalog: 'gen_cancel', schema: 'demo_unstructured', name: 'demo_unstructured' };
    const job = await h.withWorker(async () => {
      const started = (
        await request(app)
          .post('/api/generate/demo-logs')
          .send({ catalog: 'gen_cancel', counts: { nginx_access: 40 }, lines_per_file: 100_000 })
          .expect(202)
      ).body;
      await eventually(
        async () => {
          const j = (await request(app).get(`/api/jobs/${started.job_id}`).expect(200)).body;
          return j.progress?.completed >= 1 ? j : null;
        },
        { what: 'the first chunk of the logs job', timeoutMs: 60_000 },
      );
      await request(app).post(`/api/jobs/${started.job_id}/cancel`).expect(200);
      return eventually(
        async () => {
          const j = (await request(app).get(`/api/jobs/${started.job_id}`).expect(200)).body;
          return j.completed_at ? j : null;
        },
        { what: 'the cancelled logs job to end', timeoutMs: 60_000 },
      );
    });
    expect(job.status).toBe('cancelled');
    expect(job.progress.completed).toBeLessThan(job.progress.total);
    expect(await ws.tableExists({ ...vol, name: 'demo_logs_catalog' })).toBe(false);
    const files = (await ws.listVolumeFiles(vol)).map((f) => f.path);
    expect(files.length).toBeGreaterThan(0);
    expect(files.filter((p) => !p.startsWith('logs/nginx_access/'))).toEqual([]);
  }, 120_000);
});

describe('requests', () => {
  it('types, preview, limit + 1 and a missing catalog', async () => {
    const types = (await request(app).get('/api/generate/demo-media/types').expect(200)).body;
    expect(types.types.map((t: { type: string }) => t.type)).toEqual(['png', 'wav', 'mp4']);
    const pv = (
      await request(app)
        .post('/api/generate/demo-logs/preview')
        .send({ catalog: 'gen', counts: { syslog: 4 }, lines_per_file: 500 })
        .expect(200)
    ).body;
    expect(pv).toMatchObject({ files: 4, rows: 4, table: 'demo_logs_catalog' });
    expect(pv.bytes).toBeGreaterThan(4 * 500 * 50);
    expect(pv.seconds).toBeGreaterThan(0);
    const over = await request(app)
      .post('/api/generate/demo-code')
      .send({ catalog: 'gen', counts: { java: 51 } })
      .expect(400);
    expect(JSON.stringify(over.body)).toContain('at most 50 repositories per type');
    const lines = await request(app)
      .post('/api/generate/demo-logs')
      .send({ catalog: 'gen', lines_per_file: 100_001 })
      .expect(400);
    expect(JSON.stringify(lines.body)).toContain('at most 100,000 lines per file');
    await request(app).post('/api/generate/demo-knowledge').send({ catalog: 'nope' }).expect(404);
  });

  it('a hidden optional library: /types marks it, the request is a 503 with the install command and writes nothing', async () => {
    process.env.LAKEWARD_GENERATORS_HIDE = 'ffmpeg';
    try {
      const types = (await request(app).get('/api/generate/demo-media/types').expect(200)).body;
      expect(types.types.find((t: { type: string }) => t.type === 'mp4')).toMatchObject({
        available: false,
        install: 'apt-get install -y ffmpeg',
      });
      await ws.createCatalog({ name: 'gen_hidden' });
      const res = await request(app)
        .post('/api/generate/demo-media')
        .send({ catalog: 'gen_hidden', counts: { png: 1, mp4: 1 } })
        .expect(503);
      expect(res.body.error.message).toContain('apt-get install -y ffmpeg');
      expect(await ws.listSchemas('gen_hidden')).toEqual(
        expect.not.arrayContaining([expect.objectContaining({ name: 'demo_unstructured' })]),
      );
      const jobs = (await request(app).get('/api/jobs?type=generate').expect(200)).body;
      expect(JSON.stringify(jobs)).not.toContain('gen_hidden');
    } finally {
      delete process.env.LAKEWARD_GENERATORS_HIDE;
    }
  });
});

describe('lakeward generate', () => {
  let server: RunningServer;
  const run = promisify(execFile);
  const cli = async (...args: string[]) =>
    run(
      path.resolve(__dirname, '../../node_modules/.bin/tsx'),
      [path.resolve(__dirname, '../../cli/main.ts'), ...args, '--url', server.url],
      { encoding: 'utf8' },
    );
  beforeAll(async () => {
    server = await startServer(deps, { host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => server?.close(500));

  it('--preview estimates, --wait follows the job to its end and says where the data went', async () => {
    await ws.createCatalog({ name: 'gen_cli' });
    const preview = await cli('generate', 'knowledge', '--catalog', 'gen_cli', '--count', 'faq=3', '--preview');
    expect(preview.stdout).toMatch(/^3 files, \d+ bytes, 3 rows, about \d+ s/);
    const out = await h.withWorker(() =>
      cli('generate', 'knowledge', '--catalog', 'gen_cli', '--count', 'faq=3', '--seed', '5', '--wait'),
    );
    expect(out.stdout).toMatch(
      /completed — 3 files, 3 rows in \/Volumes\/gen_cli\/demo_unstructured\/demo_unstructured\/knowledge\/ and gen_cli\.demo_unstructured\.demo_knowledge_catalog/,
    );
    const vol = { catalog: 'gen_cli', schema: 'demo_unstructured', name: 'demo_unstructured' };
    expect((await ws.listVolumeFiles(vol)).map((f) => f.path)).toEqual([
      'knowledge/faq/faq-s5-00001.json',
      'knowledge/faq/faq-s5-00002.json',
      'knowledge/faq/faq-s5-00003.json',
    ]);
  }, 120_000);
});
