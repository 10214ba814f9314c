import { writeFileSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { createApp } from '../../api/app';
import { jobQueueWorkflowId } from '../../workflows/jobs/definitions';
import { eventually } from '../helpers/harness';
import { realStack, type RealStack } from '../jobs/real-stack';

/** Fan-out clones through the API, the job kernel and a real worker over local lakehouses. */
let stack: RealStack;
beforeAll(async () => {
  stack = await realStack('fanout');
}, 120_000);
afterAll(async () => {
  await stack?.h.env.client.workflow
    .getHandle(jobQueueWorkflowId('clone_fanout', stack.h.taskQueue))
    .terminate('test over')
    .catch(() => undefined);
  await stack?.teardown();
});

const orders = (catalog: string) => ({ catalog, schema: 'sales', name: 'orders' });

function app(maxParallel: number) {
  const deps = stack.appDeps();
  deps.config.clone.fanout_max_parallel = maxParallel;
  return createApp(deps);
}

async function ended(a: ReturnType<typeof createApp>, id: string) {
  return eventually(
    async () => {
      const body = (await request(a).get(`/api/clone/${id}`).expect(200)).body;
      return body.completed_at ? body : null;
    },
    { timeoutMs: 90_000, what: `job ${id} to end` },
  );
}

test('fan-out to three workspaces, one unwritable: two equal copies, target_status partial, the failure named', async () => {
  const [b, c] = [stack.h.newRoot(), stack.h.newRoot()];
  // A lakehouse folder that cannot be created: its parent is a regular file (chmod does not stop root).
  const blocker = path.join(stack.h.newRoot(), 'not-a-folder');
  writeFileSync(blocker, 'x');
  const broken = path.join(blocker, 'lake');
  const a = app(2);
  const { accepted, job } = await stack.h.withWorker(async () => {
    const accepted = await request(a)
      .post('/api/clone')
      .send({
        source_catalog: 'prod',
        destination_catalog: 'copy',
        target_workspaces: [
          { name: 'site-b', root: b },
          { name: 'site-c', root: c },
          { name: 'site-broken', root: broken },
        ],
      })
      .expect(200);
    const fanoutId = accepted.body.job_id as string;
    expect(fanoutId).toMatch(/^clone_fanout-\d{8}-\d{6}-[0-9a-f]{4}$/);
    expect(accepted.body.children.map((ch: { target: string }) => ch.target)).toEqual([
      'site-b',
      'site-c',
      'site-broken',
    ]);
    // Each target's clone job exists from the start.
    for (const ch of accepted.body.children) await request(a).get(`/api/clone/${ch.job_id}`).expect(200);

    return { accepted, job: await ended(a, fanoutId) };
  });
  const fanoutId = job.job_id as string;
  expect(job).toMatchObject({
    mode: 'fanout',
    target_count: 3,
    succeeded_targets: 2,
    failed_targets: 1,
    target_status: 'partial',
    status: 'failed',
  });
  expect(job.per_target['site-b']).toMatchObject({ status: 'completed', destination_catalog: 'copy' });
  expect(job.per_target['site-c']).toMatchObject({ status: 'completed' });
  expect(job.per_target['site-broken'].status).toBe('failed');
  expect(job.per_target['site-broken'].error).toMatch(/\S/);
  expect(job.error).toContain('site-broken');
  expect(job.tables_cloned).toBe(job.per_target['site-b'].tables_cloned * 2);

  const src = await stack.h.open(stack.root).tableChecksum(orders('prod'));
  for (const root of [b, c]) expect(await stack.h.open(root).tableChecksum(orders('copy'))).toBe(src);

  // The child clone jobs are jobs of their own, ended with their target's outcome.
  const [cb, , cbroken] = await Promise.all(
    accepted.body.children.map(
      async (ch: { job_id: string }) => (await request(a).get(`/api/clone/${ch.job_id}`).expect(200)).body,
    ),
  );
  expect(cb).toMatchObject({ status: 'completed', destination_catalog: 'copy' });
  expect(cb.completed_at).toBeTruthy();
  expect(cbroken.status).toBe('failed');

  // At most fanout_max_parallel (2) children ran at once: the third started only after one had ended.
  const history = await stack.h.env.client.workflow.getHandle(fanoutId).fetchHistory();
  let runningNow = 0;
  let most = 0;
  for (const e of history.events ?? []) {
    if (e.childWorkflowExecutionStartedEventAttributes) most = Math.max(most, ++runningNow);
    if (e.childWorkflowExecutionCompletedEventAttributes || e.childWorkflowExecutionFailedEventAttributes) runningNow--;
  }
  expect(most).toBe(2);
}, 180_000);

test('POST /api/multi-clone queues one clone job per destination catalog', async () => {
  const a = app(4);
  const { res, job } = await stack.h.withWorker(async () => {
    await request(a).post('/api/multi-clone').send({ source_catalog: 'prod', destinations: [] }).expect(400);
    const same = await request(a)
      .post('/api/multi-clone')
      .send({ source_catalog: 'prod', destinations: [{ catalog: 'prod' }] })
      .expect(400);
    expect(same.body.error.details[0].path).toBe('body.destinations.0.catalog');
    await request(a)
      .post('/api/multi-clone')
      .send({ source_catalog: 'nope', destinations: [{ catalog: 'x1' }] })
      .expect(404);

    const res = await request(a)
      .post('/api/multi-clone')
      .send({ source_catalog: 'prod', destinations: [{ catalog: 'dev_a' }, { catalog: 'dev_b' }], clone_type: 'deep' })
      .expect(202);
    expect(res.body.map((r: { destination: string; status: string }) => [r.destination, r.status])).toEqual([
      ['dev_a', 'queued'],
      ['dev_b', 'queued'],
    ]);
    return { res, job: await ended(a, res.body[0].fanout_job_id as string) };
  });
  expect(job).toMatchObject({ status: 'completed', target_status: 'success', succeeded_targets: 2 });
  const ws = stack.h.open(stack.root);
  const src = await ws.tableChecksum(orders('prod'));
  for (const d of ['dev_a', 'dev_b']) expect(await ws.tableChecksum(orders(d))).toBe(src);
  for (const r of res.body) {
    const child = (await request(a).get(`/api/clone/${r.job_id}`).expect(200)).body;
    expect(child).toMatchObject({ status: 'completed', destination_catalog: r.destination });
  }
}, 180_000);
