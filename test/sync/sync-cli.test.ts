import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { startServer, type RunningServer } from '../../api/server';
import type { Workspace } from '../../platform/port';
import { jobQueueWorkflowId } from '../../workflows/jobs/definitions';
import { realStack, type RealStack } from '../jobs/real-stack';

const run = promisify(execFile);
let stack: RealStack;
let server: RunningServer;
let ws: Workspace;

/** The real `lakeward` command (a child process) against a test server over the mini catalog `prod`. */
const cli = async (...args: string[]) =>
  (
    await run(
      path.resolve(__dirname, '../../node_modules/.bin/tsx'),
      [path.resolve(__dirname, '../../cli/main.ts'), ...args, '--url', server.url],
      { encoding: 'utf8' },
    )
  ).stdout;

beforeAll(async () => {
  stack = await realStack('sync-cli');
  server = await startServer(stack.appDeps(), { host: '127.0.0.1', port: 0 });
  ws = stack.h.open(stack.root);
}, 120_000);
afterAll(async () => {
  await server?.close(500);
  for (const type of ['incremental_sync', 'sync'])
    await stack?.h.env.client.workflow
      .getHandle(jobQueueWorkflowId(type, stack.h.taskQueue))
      .terminate('test over')
      .catch(() => undefined);
  await stack?.teardown();
});

test('lakeward estimate, incremental check|sync and sync: human tables by default, --json for scripts', async () => {
  const deps = stack.appDeps();
  await stack.h.withWorker(
    async () => {
      const none = await cli('estimate', 'prod', 'prod_dev');
      expect(none).toMatch(/^prod: \d+ tables/);
      expect(none).toContain('selective: prod_dev does not exist');

      await cli('sync', 'prod', 'prod_dev', '--wait');
      const check = await cli('incremental', 'check', 'prod', 'prod_dev', '--schema', 'sales');
      expect(check).toMatch(/^sales: 0 of 1 tables need syncing/);
      expect(check).toMatch(/orders\s+in_sync/);

      await ws.insertRows({ catalog: 'prod', schema: 'sales', name: 'orders' }, [{ id: 999, region: 'EU', amount: 5 }]);
      const json = JSON.parse(await cli('incremental', 'check', 'prod', 'prod_dev', '--schema', 'sales', '--json'));
      expect(json).toMatchObject({ schema: 'sales', tables_needing_sync: 1 });
      expect(json.tables[0]).toMatchObject({ table: 'orders', reason: 'source_changed', path: 'copy' });

      const est = await cli('estimate', 'prod', 'prod_dev');
      expect(est).toMatch(/selective into prod_dev: 1 to clone/);

      const synced = await cli('incremental', 'sync', 'prod', 'prod_dev', '--schema', 'sales', '--wait');
      expect(synced).toMatch(/^job incremental_sync-\S+ completed/);
      expect(synced).toContain('sales.orders  copy');

      const plan = await cli('sync', 'prod', 'prod_dev', '--dry-run');
      expect(plan).toBe('dry run: sync prod → prod_dev: 0 actions (drop_extra off)\n');
    },
    { deps: { workspaces: deps.workspaces } },
  );
}, 300_000);
