import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { Command } from 'commander';
import { startServer, type RunningServer } from '../../api/server';
import { addCloneFlags, cloneBodyFromFlags, cloneFlagSpecs } from '../../cli/commands/clone-flags';
import { barView, lineView } from '../../cli/progress';
import { cloneRequestFields } from '../../schemas/clone';
import type { Store } from '../../store/db';
import { jobQueueWorkflowId } from '../../workflows/jobs/definitions';
import { createTestStore } from '../helpers/db';
import { connectTestEnv } from '../helpers/temporal';
import { jobAppDeps } from './api-app';
import { startJobWorker, type JobWorker } from './harness';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../..');
const KEY = 'cli-key';

let env: TestWorkflowEnvironment;
let store: Store;
let w: JobWorker;
let server: RunningServer;
beforeAll(async () => {
  env = await connectTestEnv();
  store = await createTestStore();
  w = await startJobWorker(env, store);
  server = await startServer(jobAppDeps(env, store, w.taskQueue, KEY), { host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await env.client.workflow
    .getHandle(jobQueueWorkflowId('clone', w.taskQueue))
    .terminate('test over')
    .catch(() => undefined);
  await server?.close(500);
  await w?.stop();
  await store?.close();
  await env?.teardown();
});

/** Runs the real CLI in a child process (stdout is a pipe, so progress comes as lines). */
async function lakeward(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(
      path.join(ROOT, 'node_modules/.bin/tsx'),
      ['cli/main.ts', ...args, '--url', server.url],
      {
        cwd: ROOT,
        env: { ...process.env, LAKEWARD_API_KEY: KEY },
        timeout: 60_000,
      },
    );
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

test('every clone request field has a flag, and flags become the request body', () => {
  const flags = cloneFlagSpecs().map((s) => s.field);
  expect(flags.sort()).toEqual(
    Object.keys(cloneRequestFields)
      .filter((f) => !f.endsWith('_catalog'))
      .sort(),
  );
  const cmd = addCloneFlags(new Command().exitOverride()).argument('<s>').argument('<d>');
  cmd.parse(
    [
      'a',
      'b',
      '--max-workers',
      '8',
      '--no-copy-permissions',
      '--validate-checksum',
      '--include-schemas',
      's1,s2',
      '--include-schemas',
      's3',
      '--where-clauses',
      's.t=id > 1',
      '--clone-type',
      'shallow',
      '--target-workspace',
      '{"root":"/tmp/t"}',
    ],
    { from: 'user' },
  );
  expect(cloneBodyFromFlags('a', 'b', cmd.opts())).toEqual({
    source_catalog: 'a',
    destination_catalog: 'b',
    max_workers: 8,
    copy_permissions: false,
    validate_checksum: true,
    include_schemas: ['s1', 's2', 's3'],
    where_clauses: { 's.t': 'id > 1' },
    clone_type: 'shallow',
    target_workspace: { root: '/tmp/t' },
  });
  expect(() =>
    addCloneFlags(new Command().exitOverride().configureOutput({ writeErr: () => undefined })).parse(
      ['--max-workers', 'many'],
      { from: 'user' },
    ),
  ).toThrow(/expected a number/);
});

test('line progress counts tables ok/failed/skipped and schemas from the events', () => {
  const lines: string[] = [];
  const view = lineView((l) => lines.push(l));
  view.event({ type: 'progress', schemas: { completed: 0, total: 2 }, tables: { total: 3 } });
  view.event({ type: 'table_finished', status: 'cloned', message: 's.a: cloned' });
  view.event({ type: 'table_finished', status: 'failed', message: 's.b: failed' });
  view.event({ type: 'table_finished', status: 'skipped', message: 's.c: skipped' });
  view.event({ type: 'schema_finished', message: 'schema s' });
  expect(view.counts.text()).toBe('schemas 1/2, tables 3/3 (ok 1, failed 1, skipped 1)');
  expect(lines[1]).toContain('s.b: failed — schemas 0/2, tables 2/3 (ok 1, failed 1, skipped 0)');
});

test('lakeward clone --wait follows the job to its summary; jobs, job and logs show it', async () => {
  const res = await lakeward('clone', 'cli_src', 'cli_dst', '--wait', '--max-workers', '2', '--no-copy-tags');
  expect(res.stderr).toBe('');
  expect(res.code).toBe(0);
  const id = /^(clone-\d{8}-\d{6}-[0-9a-f]{4}) queued/m.exec(res.stdout)?.[1];
  expect(id).toBeDefined();
  expect(res.stdout).toContain('tables 2/2 (ok 2, failed 0, skipped 0)');
  expect(res.stdout).toMatch(new RegExp(`${id} completed: cli_src → cli_dst`));
  expect(res.stdout).toMatch(/tables\s+2 cloned, 0 failed, 0 skipped/);

  expect((await lakeward('jobs')).stdout).toMatch(new RegExp(`${id}\\s+completed\\s+cli_src → cli_dst`));
  const job = await lakeward('job', id!, '--json');
  expect(JSON.parse(job.stdout)).toMatchObject({
    job_id: id,
    status: 'completed',
    request: { max_workers: 2, copy_tags: false },
  });
  const logs = await lakeward('logs', id!, '--no-follow');
  expect(logs.stdout).toMatch(/table_started[\s\S]*table_finished[\s\S]*completed/);
});

test('the CLI reports API errors naming the field, and unknown jobs', async () => {
  const bad = await lakeward('clone', 'same', 'same');
  expect(bad.code).toBe(1);
  expect(bad.stderr).toMatch(/VALIDATION_ERROR \(HTTP 400\)/);
  expect(bad.stderr).toMatch(/body\.destination_catalog: must differ/);
  const missing = await lakeward('cancel', 'clone-20200101-000000-abcd');
  expect(missing.code).toBe(1);
  expect(missing.stderr).toMatch(/NOT_FOUND \(HTTP 404\)/);
});

test('on a terminal the progress shows schema and table bars with ok/failed/skipped and ETA', () => {
  let out = '';
  const tty = Object.assign(Object.create(process.stderr) as NodeJS.WriteStream, {
    isTTY: true,
    columns: 120,
    write: (chunk: string) => ((out += chunk), true),
    cursorTo: () => true,
    moveCursor: () => true,
    clearLine: () => true,
    clearScreenDown: () => true,
  });
  const view = barView(tty);
  view.event({ type: 'progress', schemas: { completed: 0, total: 1 }, tables: { total: 3 } });
  view.event({ type: 'table_finished', status: 'cloned' });
  view.event({ type: 'table_finished', status: 'cloned' });
  view.event({ type: 'table_finished', status: 'failed', message: 's.c: failed after 3 attempt(s)' });
  view.event({ type: 'schema_finished' });
  view.stop();
  expect(out).toMatch(/schemas \|.*\| 1\/1/);
  expect(out).toMatch(/tables +\|.*\| 3\/3 ok 2 failed 1 skipped 0 \| ETA/);
  expect(out).toContain('failed: s.c: failed after 3 attempt(s)');
});
