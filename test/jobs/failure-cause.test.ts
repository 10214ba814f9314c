import request from 'supertest';
import { createApp } from '../../api/app';
import { InvalidInputError, PermissionDeniedError } from '../../platform/errors';
import { recentNotifications } from '../../store/notifications/repo';
import { faultyWorkspace } from '../clone/fixtures/faulty-workspace';
import { eventually } from '../helpers/harness';
import { realStack, type RealStack } from './real-stack';

/** A failed job names its root cause — the platform's own message, the object, the step — never a wrapper or a folder. */
let stack: RealStack;
beforeAll(async () => {
  stack = await realStack('failure-cause');
}, 120_000);
afterAll(async () => {
  await stack?.teardown();
});

const app = () => createApp(stack.appDeps());

async function runToEnd(destination: string) {
  const a = app();
  const id = (
    await request(a).post('/api/clone').send({ source_catalog: 'prod', destination_catalog: destination }).expect(200)
  ).body.job_id as string;
  return eventually(
    async () => {
      const body = (await request(a).get(`/api/clone/${id}`).expect(200)).body;
      return body.completed_at ? body : null;
    },
    { timeoutMs: 60_000, what: `job ${id} to end` },
  );
}

function expectNoWrapperOrFolder(text: string): void {
  expect(text).not.toMatch(/Activity task failed|Child Workflow execution failed/);
  expect(text).not.toContain(stack.root);
}

test('a platform error deep inside a table batch is the job error, run log line and notification text', async () => {
  const message = '[DELTA_INVALID_CHARACTERS] bad column name';
  const job = await stack.h.withWorker(() => runToEnd('prod_fail_table'), {
    wrap: (ws) =>
      faultyWorkspace(ws, (method, args) =>
        method === 'cloneTable' && JSON.stringify(args).includes('"orders"')
          ? new InvalidInputError(message)
          : undefined,
      ),
  });
  expect(job.status).toBe('failed');
  expect(job.error).toContain(`sales.orders: ${message}`);
  expectNoWrapperOrFolder(job.error);
  expect(job.logs.some((l: string) => l.includes(message) && l.includes('failed'))).toBe(true);
  const note = (await recentNotifications(stack.h.store.db, 50)).find((n) => n.jobId === job.job_id);
  expect(note?.message).toContain(message);
  expectNoWrapperOrFolder(note!.message);
});

test('a failure in a job step names the step and the platform failure', async () => {
  const job = await stack.h.withWorker(() => runToEnd('prod_fail_step'), {
    wrap: (ws) =>
      faultyWorkspace(ws, (method) =>
        method === 'createCatalog' ? new PermissionDeniedError('no CREATE CATALOG on metastore') : undefined,
      ),
  });
  expect(job.status).toBe('failed');
  expect(job.error).toBe('prepareTarget: PermissionDenied: no CREATE CATALOG on metastore');
  expect(job.logs.join('\n')).toContain('no CREATE CATALOG on metastore');
});
