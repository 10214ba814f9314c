import type { Client } from '@temporalio/client';
import request from 'supertest';
import { createApp } from '../../api/app';
import { JobEventSchema } from '../../schemas/jobs';
import { eventually } from '../helpers/harness';
import { realStack, type RealStack } from './real-stack';

/**
 * A clone held in the slowest throttle (max_rps 1): reads of the job answer from the store without asking the
 * workflow anything, and a cancel still ends the job within 2 s.
 */
let stack: RealStack;
beforeAll(async () => {
  stack = await realStack('throttled', { extraTables: 12 });
}, 120_000);
afterAll(async () => {
  await stack?.teardown();
});

/** The app's Temporal client, counting every workflow call the API makes through it. */
function countingClient(client: Client, calls: string[]): Client {
  const workflow = new Proxy(client.workflow, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        calls.push(String(prop));
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return new Proxy(client, { get: (t, p, r) => (p === 'workflow' ? workflow : Reflect.get(t, p, r)) });
}

test('a job in a max_rps 1 throttle is read from the store, streams documented events, and cancels within 2 s', async () => {
  const calls: string[] = [];
  const client = countingClient(stack.h.env.client, calls);
  const { h } = stack;
  const app = createApp(stack.appDeps(client));
  await h.withWorker(async () => {
    const id = (
      await request(app)
        .post('/api/clone')
        .send({ source_catalog: 'prod', destination_catalog: 'prod_slow', max_rps: 1, clone_type: 'DEEP' })
        .expect(200)
    ).body.job_id as string;
    // Totals are planned before the first copy: the record knows 2 schemas and every table from the start.
    const first = await eventually(
      async () => {
        const body = (await request(app).get(`/api/clone/${id}`).expect(200)).body;
        return body.status === 'running' && body.progress.total > 0 ? body : null;
      },
      { timeoutMs: 30_000, what: `job ${id} running with planned totals` },
    );
    expect(first.progress).toMatchObject({ schemas: '0/2', total: 14 });

    calls.length = 0;
    for (let i = 0; i < 5; i++) {
      const one = (await request(app).get(`/api/clone/${id}`).expect(200)).body;
      expect(['running', 'cancelling']).toContain(one.status);
      const list = (await request(app).get('/api/clone/jobs').expect(200)).body as { job_id: string }[];
      expect(list.map((j) => j.job_id)).toContain(id);
      const all = (await request(app).get(`/api/jobs/${id}`).expect(200)).body;
      expect(all).toMatchObject({ job_type: 'clone', status: 'running' });
    }
    expect(calls).toEqual([]);

    expect((await request(app).delete(`/api/clone/${id}`).expect(200)).body.status).toBe('cancelling');
    const ended = await eventually(
      async () => {
        const body = (await request(app).get(`/api/clone/${id}`).expect(200)).body;
        return body.completed_at ? body : null;
      },
      { timeoutMs: 10_000, what: `job ${id} to record its end after the cancel` },
    );
    expect(ended.status).toBe('cancelled');
    // From the recorded cancel request to the recorded end: the job's own clock, not this test's polling.
    expect(Date.parse(ended.completed_at) - Date.parse(ended.cancel_requested_at)).toBeLessThan(2_000);

    // Every event the job wrote has the documented keys.
    const stream = await request(app).get(`/api/clone/${id}/logs?follow=false`).expect(200);
    const events = stream.text
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l));
    expect(events.length).toBeGreaterThan(2);
    for (const e of events) expect({ e, ok: JobEventSchema.safeParse(e).success }).toEqual({ e, ok: true });
  });
}, 120_000);

test('a cancel ends a job whose next table waits for its tables_per_minute slot within 2 s, not after the wait', async () => {
  const { h } = stack;
  const app = createApp(stack.appDeps(h.env.client));
  await h.withWorker(async () => {
    const id = (
      await request(app)
        .post('/api/clone')
        .send({
          source_catalog: 'prod',
          destination_catalog: 'prod_per_minute',
          clone_type: 'SHALLOW',
          parallel_tables: 1,
          throttle: { tables_per_minute: 1 },
        })
        .expect(200)
    ).body.job_id as string;
    // One table started this minute: the next one waits up to 60 s for its slot inside its activity.
    await eventually(
      async () => {
        const body = (await request(app).get(`/api/clone/${id}`).expect(200)).body;
        return body.status === 'running' && body.progress.completed >= 1 ? body : null;
      },
      { timeoutMs: 30_000, what: `job ${id} running with its first table done` },
    );
    expect((await request(app).delete(`/api/clone/${id}`).expect(200)).body.status).toBe('cancelling');
    const ended = await eventually(
      async () => {
        const body = (await request(app).get(`/api/clone/${id}`).expect(200)).body;
        return body.completed_at ? body : null;
      },
      { timeoutMs: 20_000, what: `job ${id} to record its end after the cancel` },
    );
    expect(ended.status).toBe('cancelled');
    expect(ended.progress.completed).toBeLessThan(ended.progress.total);
    expect(Date.parse(ended.completed_at) - Date.parse(ended.cancel_requested_at)).toBeLessThan(2_000);
  });
}, 120_000);
