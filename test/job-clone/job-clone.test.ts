import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Express } from 'express';
import request from 'supertest';
import { createApp } from '../../api/app';
import { startServer } from '../../api/server';
import { openWorkspace } from '../../platform';
import { createDatabricksWorkspace } from '../../platform/databricks';
import type { Workspace } from '../../platform/port';
import type { Store } from '../../store/db';
import { testAppDeps } from '../api/deps';
import { RecordingSqlSession } from '../databricks/recording-session';
import { StubServer, type SeenRequest } from '../databricks/stub-server';
import { createTestStore } from '../helpers/db';
import { runCli } from '../helpers/cli';

/** Job clone against stand-in Databricks workspaces (the exact REST calls) and the local registry of pipelines. */
let store: Store;
let src: StubServer;
let dest: StubServer;
let dbx: Express;
let local: Express;
let localWs: Workspace;
let dir: string;
let localDeps: ReturnType<typeof testAppDeps>;
let databricksWs: Workspace;

type Json = Record<string, unknown>;
const task = (i: number, extra: Json = {}) => ({
  task_key: `t${i}`,
  notebook_task: { notebook_path: `/jobs/n${i}` },
  existing_cluster_id: 'c-1',
  ...(i > 0 ? { depends_on: [{ task_key: `t${i - 1}` }] } : {}),
  ...extra,
});
const big = {
  job_id: 1,
  creator_user_name: 'ann@example.com',
  created_time: 1700000000000,
  settings: {
    name: 'nightly',
    schedule: { quartz_cron_expression: '0 0 2 * * ?', timezone_id: 'UTC', pause_status: 'UNPAUSED' },
    deployment: { kind: 'BUNDLE', metadata_file_path: '/x' },
    edit_mode: 'UI_LOCKED',
    job_clusters: [{ job_cluster_key: 'jc', new_cluster: { spark_version: '15.4.x-scala2.12', num_workers: 2 } }],
    tasks: [
      ...Array.from({ length: 129 }, (_, i) => task(i)),
      { task_key: 't129', sql_task: { warehouse_id: 'wh-1', query: { query_id: 'q' } } },
    ],
  },
};
const settingsOf = (j: typeof big) => j.settings;
const created: Json[] = [];
const destCreated: SeenRequest[] = [];

/** jobs/get answers a job 100 tasks a page, as the Jobs API 2.2 does. */
function jobsGet(jobs: Record<string, typeof big>) {
  return (req: SeenRequest) => {
    const job = jobs[req.query.job_id];
    if (!job) return { status: 404, json: { error_code: 'RESOURCE_DOES_NOT_EXIST', message: 'Job does not exist' } };
    const page = Number(req.query.page_token ?? 0);
    const tasks = job.settings.tasks.slice(page * 100, page * 100 + 100);
    const more = (page + 1) * 100 < job.settings.tasks.length;
    const settings = page === 0 ? { ...job.settings, tasks } : { tasks };
    return {
      json: {
        ...(page === 0 ? job : { job_id: job.job_id }),
        settings,
        ...(more ? { has_more: true, next_page_token: String(page + 1) } : {}),
      },
    };
  };
}

beforeAll(async () => {
  store = await createTestStore();
  src = await new StubServer().start();
  dest = await new StubServer().start();
  const reordered = { ...big, job_id: 2, settings: { ...big.settings, tasks: [...big.settings.tasks].reverse() } };
  const changed = {
    ...big,
    job_id: 3,
    settings: {
      ...big.settings,
      tasks: big.settings.tasks.map((t, i) =>
        i === 5 ? task(5, { notebook_task: { notebook_path: '/jobs/other' } }) : t,
      ),
    },
  };
  let nextId = 500;
  src
    .on('GET /api/2.2/jobs/get', jobsGet({ '1': big, '2': reordered, '3': changed }))
    .on('GET /api/2.2/jobs/list', { json: { jobs: [{ job_id: 1, settings: { name: 'nightly' } }] } })
    .on('POST /api/2.2/jobs/create', (req) => {
      created.push(JSON.parse(req.body.toString()) as Json);
      return { json: { job_id: nextId++ } };
    });
  dest.on('POST /api/2.2/jobs/create', (req) => {
    destCreated.push(req);
    return { json: { job_id: 77 } };
  });
  databricksWs = await createDatabricksWorkspace({
    host: src.url,
    warehouseId: 'wh1',
    auth: { type: 'pat', token: 'dapi0123456789abcdef0123456789abcdef' },
    sqlSession: new RecordingSqlSession(),
    retry: { baseDelayMs: 20, maxDelayMs: 50 },
  });
  dbx = createApp(testAppDeps({ store, open: async () => databricksWs }));
  dir = mkdtempSync(path.join(tmpdir(), 'lw-job-clone-'));
  localWs = await openWorkspace({ kind: 'local', root: dir });
  localDeps = testAppDeps({ store, open: async () => localWs });
  local = createApp(localDeps);
}, 60_000);
afterAll(async () => {
  await src?.stop();
  await dest?.stop();
  await localWs?.close();
  await store?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('Databricks (Jobs API 2.2 on a stand-in workspace)', () => {
  test('list passes name and limit; get merges every page of a 130-task job', async () => {
    await request(dbx).get('/api/job-clone').query({ name: 'nightly', limit: 5 }).expect(200);
    expect(src.seen.filter((r) => r.path === '/api/2.2/jobs/list').at(-1)?.query).toEqual({
      name: 'nightly',
      limit: '5',
    });
    await request(dbx).get('/api/job-clone').query({ limit: 101 }).expect(400);
    const res = await request(dbx).get('/api/job-clone/1').expect(200);
    expect(res.body.settings.tasks).toHaveLength(130);
    expect(res.body.settings.tasks.map((t: Json) => t.task_key)).toEqual(settingsOf(big).tasks.map((t) => t.task_key));
    const gets = src.seen.filter((r) => r.path === '/api/2.2/jobs/get').slice(-2);
    expect(gets.map((r) => r.query)).toEqual([{ job_id: '1' }, { job_id: '1', page_token: '1' }]);
    await request(dbx).get('/api/job-clone/999').expect(404);
  });

  test('clone creates the whole job, renamed, paused, without read-only or bundle fields', async () => {
    const res = await request(dbx)
      .post('/api/job-clone/clone')
      .send({ job_id: '1', overrides: { max_concurrent_runs: 2 } })
      .expect(201);
    expect(res.body).toMatchObject({ source_job_id: '1', new_job_id: '500', name: 'nightly_clone', warnings: [] });
    const body = created.at(-1)!;
    expect(body.tasks).toHaveLength(130);
    expect(body).toMatchObject({ name: 'nightly_clone', max_concurrent_runs: 2, edit_mode: 'EDITABLE' });
    expect(body.schedule).toEqual({ ...settingsOf(big).schedule, pause_status: 'PAUSED' });
    expect(body).not.toHaveProperty('deployment');
    expect(body).not.toHaveProperty('job_id');
    expect(body).not.toHaveProperty('creator_user_name');
  });

  test('diff: reordered tasks are no difference; a changed notebook path is one, at its JSON Pointer', async () => {
    const same = await request(dbx).post('/api/job-clone/diff').send({ job_id_a: '1', job_id_b: '2' }).expect(200);
    expect(same.body).toMatchObject({ identical: true, diffs: [] });
    const one = await request(dbx).post('/api/job-clone/diff').send({ job_id_a: '1', job_id_b: '3' }).expect(200);
    expect(one.body.diffs).toEqual([
      { path: '/tasks/t5/notebook_task/notebook_path', kind: 'changed', a: '/jobs/n5', b: '/jobs/other' },
    ]);
  });

  test('backup reports per job; restore creates each definition (paused) with the same settings', async () => {
    const backup = await request(dbx)
      .post('/api/job-clone/backup')
      .send({ job_ids: ['1', '404'] })
      .expect(200);
    expect(backup.body.results).toEqual([
      { job_id: '1', status: 'ok' },
      { job_id: '404', status: 'failed', error: expect.stringContaining('404') },
    ]);
    const def = backup.body.definitions[0];
    expect(def.settings.tasks).toHaveLength(130);
    const restored = await request(dbx)
      .post('/api/job-clone/restore')
      .send({ definitions: backup.body.definitions })
      .expect(200);
    expect(restored.body.results).toEqual([{ source_job_id: '1', new_job_id: expect.any(String), status: 'ok' }]);
    expect(created.at(-1)).toEqual({ ...def.settings, schedule: { ...def.settings.schedule, pause_status: 'PAUSED' } });
  });

  test('cross-workspace clone remaps clusters, warns about the warehouse left, uses the token only for that call', async () => {
    const token = 'dapiDESTINATION0123456789abcdef0123';
    const res = await request(dbx)
      .post('/api/job-clone/clone-cross-workspace')
      .send({
        job_id: '1',
        dest_host: dest.url,
        dest_token: token,
        new_name: 'copy',
        remap: { clusters: { 'c-1': 'c-9' } },
      })
      .expect(201);
    expect(res.body.new_job_id).toBe('77');
    expect(res.body.warnings).toEqual(['warehouses not remapped: wh-1']);
    expect(JSON.stringify(res.body)).not.toContain(token);
    const [call] = destCreated;
    expect(call.headers.authorization).toBe(`Bearer ${token}`);
    const body = JSON.parse(call.body.toString()) as { name: string; tasks: Json[] };
    expect(body.name).toBe('copy');
    expect(new Set(body.tasks.filter((t) => t.existing_cluster_id).map((t) => t.existing_cluster_id))).toEqual(
      new Set(['c-9']),
    );
  });
});

test('cross-workspace clone to a saved target: its sealed token reaches the destination only; bad bodies are 4xx', async () => {
  const token = 'dapiSAVEDTARGET0123456789abcdef012345';
  const opened: string[] = [];
  // The saved target's https host stands for the destination stub; the opener gets the spec built from the target.
  const app = createApp(
    testAppDeps({
      store,
      open: async (spec) => {
        if (spec.kind !== 'databricks' || !spec.host.startsWith('https://dest.')) return databricksWs;
        opened.push(spec.token ?? '');
        return createDatabricksWorkspace({
          host: dest.url,
          warehouseId: 'whd',
          auth: { type: 'pat', token: spec.token! },
          sqlSession: new RecordingSqlSession(),
        });
      },
    }),
  );
  await request(app)
    .post('/api/targets')
    .send({ name: 'dr-jobs', host: 'https://dest.example.com', auth_method: 'token', token, warehouse_id: 'whd' })
    .expect(201);
  const before = destCreated.length;
  const res = await request(app)
    .post('/api/job-clone/clone-cross-workspace')
    .send({
      job_id: '1',
      dest_target: 'dr-jobs',
      remap: { clusters: { 'c-1': 'c-9' }, warehouses: { 'wh-1': 'wh-9' } },
    })
    .expect(201);
  expect(res.body).toMatchObject({ new_job_id: '77', name: 'nightly_clone', warnings: [] });
  expect(JSON.stringify(res.body)).not.toContain(token);
  expect(opened).toEqual([token]);
  const call = destCreated[before];
  expect(destCreated).toHaveLength(before + 1);
  expect(call.headers.authorization).toBe(`Bearer ${token}`);
  const body = JSON.parse(call.body.toString()) as { tasks: Json[]; schedule: Json };
  expect(body.tasks).toHaveLength(130);
  expect(body.schedule.pause_status).toBe('PAUSED');
  expect(body.tasks.at(-1)).toMatchObject({ sql_task: { warehouse_id: 'wh-9' } });

  const post = (b: Json) =>
    request(app)
      .post('/api/job-clone/clone-cross-workspace')
      .send({ job_id: '1', ...b });
  const missing = await post({ dest_target: 'nope' }).expect(404);
  expect(JSON.stringify(missing.body)).toContain('nope');
  const both = await post({ dest_target: 'dr-jobs', dest_host: dest.url, dest_token: token }).expect(400);
  expect(JSON.stringify(both.body)).toContain('dest_target');
  const none = await post({}).expect(400);
  expect(JSON.stringify(none.body)).toContain('dest_host');
  expect(destCreated).toHaveLength(before + 1);
});

describe('local lakehouse (Lakeward pipelines as Jobs-shaped settings)', () => {
  test('list, clone, diff, backup and restore work offline', async () => {
    const p = await request(local)
      .post('/api/pipeline/pipelines')
      .send({
        name: 'refresh',
        steps: [
          { type: 'notify', name: 'start', config: { message: 'go' } },
          { type: 'wait', name: 'pause', config: { seconds: 5 }, on_failure: { retry: 1 } },
        ],
      })
      .expect(201);
    const id = `pipeline:${p.body.pipeline_id}`;
    const list = await request(local).get('/api/job-clone').query({ name: 'refresh' }).expect(200);
    expect(list.body.jobs.map((j: { job_id: string }) => j.job_id)).toEqual([id]);
    expect(list.body.jobs[0].settings.tasks[1]).toMatchObject({
      task_key: 'pause',
      depends_on: [{ task_key: 'start' }],
    });

    const clone = await request(local).post('/api/job-clone/clone').send({ job_id: id }).expect(201);
    expect(clone.body.name).toBe('refresh_clone');
    const copy = await request(local)
      .get(`/api/pipeline/pipelines/${clone.body.new_job_id.slice('pipeline:'.length)}`)
      .expect(200);
    expect(copy.body.steps).toEqual(p.body.steps);
    const diff = await request(local)
      .post('/api/job-clone/diff')
      .send({ job_id_a: id, job_id_b: clone.body.new_job_id })
      .expect(200);
    expect(diff.body.diffs).toEqual([{ path: '/name', kind: 'changed', a: 'refresh', b: 'refresh_clone' }]);

    const backup = await request(local)
      .post('/api/job-clone/backup')
      .send({ job_ids: [id] })
      .expect(200);
    const restored = await request(local)
      .post('/api/job-clone/restore')
      .send({ definitions: backup.body.definitions })
      .expect(200);
    const back = restored.body.results[0].new_job_id as string;
    const again = await request(local).post('/api/job-clone/diff').send({ job_id_a: id, job_id_b: back }).expect(200);
    expect(again.body.identical).toBe(true);
    await request(local).get('/api/job-clone/pipeline:nope').expect(404);
  });
});

test('lakeward job-clone list, clone, diff (exit 1 when they differ), backup and restore on the local registry', async () => {
  const server = await startServer(localDeps, { host: '127.0.0.1', port: 0 });
  const cli = (...args: string[]) => runCli(['job-clone', ...args, '--url', server.url], { cwd: dir });
  try {
    const p = await request(local)
      .post('/api/pipeline/pipelines')
      .send({ name: 'cli_job', steps: [{ type: 'notify', name: 'hi', config: { message: 'hi' } }] })
      .expect(201);
    const id = `pipeline:${p.body.pipeline_id}`;
    expect((await cli('list', '--name', 'cli_job')).stdout).toContain(id);
    const cloned = await cli('clone', id, '--name', 'cli_copy');
    expect(cloned.code).toBe(0);
    const copy = /created (\S+) \(cli_copy\)/.exec(cloned.stdout)![1];
    const diff = await cli('diff', id, copy);
    expect(diff.code).toBe(1);
    expect(diff.stdout).toContain('changed /name: "cli_job" → "cli_copy"');
    const backup = await cli('backup', 'b.json', id);
    expect(backup.stdout).toContain(`${id}: ok`);
    expect(JSON.parse(readFileSync(path.join(dir, 'b.json'), 'utf8')).definitions).toHaveLength(1);
    const restored = await cli('restore', 'b.json');
    expect(restored.code).toBe(0);
    expect(restored.stdout).toMatch(new RegExp(`${id} → pipeline:\\w+: ok`));
  } finally {
    await server.close(500);
  }
}, 60_000);
