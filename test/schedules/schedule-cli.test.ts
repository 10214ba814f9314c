import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { startServer, type RunningServer } from '../../api/server';
import { scheduledCloneSubmitter } from '../../api/schedules/submitter';
import { eventually } from '../helpers/harness';
import { realStack, type RealStack } from '../jobs/real-stack';

/**
 * `lakeward schedule`, the long-lived scheduler mode, as a real child process against a real API, worker and
 * Temporal Schedule: SIGTERM during a run lets the clone finish, pauses the Schedule, removes the pid file and
 * prints a summary; a second scheduler on the same pid file refuses while the first lives.
 */
let stack: RealStack;
let server: RunningServer;
let dir: string;
beforeAll(async () => {
  stack = await realStack('schedule-cli', { extraTables: 4 });
  server = await startServer(stack.appDeps(), { host: '127.0.0.1', port: 0 });
  dir = mkdtempSync(path.join(tmpdir(), 'lw-schedule-cli-'));
}, 120_000);
afterAll(async () => {
  await server?.close(500);
  await stack?.h.env.client.schedule
    .getHandle('clone-schedule-nightly')
    .delete()
    .catch(() => undefined);
  await stack?.teardown();
  rmSync(dir, { recursive: true, force: true });
});

interface Proc {
  child: ChildProcess;
  out: () => string;
  exited: Promise<number | null>;
}

function lakeward(...args: string[]): Proc {
  const child = spawn(
    path.resolve(__dirname, '../../node_modules/.bin/tsx'),
    [path.resolve(__dirname, '../../cli/main.ts'), ...args, '--url', server.url],
    { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  child.stdout!.on('data', (b: Buffer) => (out += b.toString()));
  child.stderr!.on('data', (b: Buffer) => (out += b.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, out: () => out, exited };
}

test('SIGTERM during a run: the clone completes, the Schedule is paused, the pid file goes, a summary is printed', async () => {
  const config = path.join(dir, 'nightly.yaml');
  writeFileSync(
    config,
    [
      'name: nightly',
      'schedule:',
      '  cron: "0 0 2 * * ?"',
      '  drift_check: true',
      'clone_options:',
      '  source_catalog: prod',
      '  destination_catalog: prod_nightly',
      '  clone_type: DEEP',
      '  max_rps: 10',
      '',
    ].join('\n'),
  );
  const pidFile = path.join(dir, 'scheduler.pid');
  const deps = stack.appDeps();
  const worker = {
    deps: {
      workspaces: deps.workspaces,
      submitClone: scheduledCloneSubmitter({ ...deps, client: stack.h.env.client }),
    },
  };
  await stack.h.withWorker(async () => {
    const first = lakeward('schedule', '--config', config, '--pid-file', pidFile, '--run-now', '--poll-ms', '200');
    const running = await eventually(
      async () => /run (clone-schedule-nightly-\S+) started: clone job (clone-\S+)/.exec(first.out()),
      { timeoutMs: 60_000, what: 'the scheduler to report a running clone' },
    ).catch((e) => {
      throw new Error(`${e.message}\n${first.out()}`);
    });
    const [, runId, jobId] = running;
    expect(existsSync(pidFile)).toBe(true);

    const second = lakeward('schedule', '--config', config, '--pid-file', pidFile);
    expect(await second.exited).toBe(3);
    // The pid file holds the scheduler's own process (tsx runs it as a child of the spawned process).
    const holder = readFileSync(pidFile, 'utf8').trim();
    expect(second.out()).toContain(`another scheduler (pid ${holder}) holds ${pidFile}; not starting`);
    expect(existsSync(pidFile)).toBe(true);

    const app = server.url;
    const before = (await request(app).get(`/api/schedule/clone-schedule-nightly/runs`).expect(200)).body;
    expect(before.find((r: any) => r.run_id === runId).outcome).toBe('running');
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);

    const out = first.out();
    expect(out).toContain('SIGTERM: stopping once the running clone has finished');
    expect(out).toContain('schedule clone-schedule-nightly paused');
    expect(out).toMatch(new RegExp(`run ${runId} completed`));
    expect(out).toMatch(/summary: 1 run, 1 cloned, 0 skipped by drift check, 0 failed/);
    expect(out.indexOf('paused')).toBeLessThan(out.indexOf(`run ${runId} completed`));
    expect(existsSync(pidFile)).toBe(false);

    const view = (await request(app).get('/api/schedule/clone-schedule-nightly').expect(200)).body;
    expect(view).toMatchObject({ paused: true, status: 'paused', clones: 1 });
    expect(view.note).toBe('paused by lakeward schedule on SIGTERM');
    expect((await request(app).get(`/api/jobs/${jobId}`).expect(200)).body.status).toBe('completed');

    // A stale pid file (its process gone) does not stop the next scheduler; it unpauses the same schedule.
    writeFileSync(pidFile, '999999\n');
    const third = lakeward('schedule', '--config', config, '--pid-file', pidFile, '--poll-ms', '200');
    await eventually(async () => third.out().includes('schedule clone-schedule-nightly active'), {
      timeoutMs: 30_000,
      what: 'the third scheduler to start over the stale pid file',
    });
    expect((await request(app).get('/api/schedule/clone-schedule-nightly').expect(200)).body.paused).toBe(false);
    third.child.kill('SIGINT');
    expect(await third.exited).toBe(0);
    expect(third.out()).toMatch(/summary: 0 runs, 0 cloned, 0 skipped by drift check, 0 failed/);
  }, worker);
}, 180_000);
