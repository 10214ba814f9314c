import type { Express } from 'express';
import request from 'supertest';
import { createApp } from '../../api/app';
import type { AppDeps } from '../../api/deps';
import type { Workspace } from '../../platform/port';
import { jobQueueWorkflowId } from '../../workflows/jobs/definitions';
import { testAppDeps } from '../api/deps';
import { createHarness, eventually, type Harness } from '../helpers/harness';

/** The setup MDM job tests share: a harness (Temporal, store, lakehouse) and the API app on it. */
export interface MdmTestApp {
  h: Harness;
  deps: AppDeps;
  app: Express;
  root: string;
  ws: Workspace;
}

export async function createMdmTestApp(name: string): Promise<MdmTestApp> {
  const h = await createHarness(name);
  const root = h.config.workspace.root;
  const ws = h.open(root);
  const temporal = { client: h.env.client, connection: h.env.client.connection, address: 'test' };
  const deps = testAppDeps({
    store: h.store,
    temporal,
    flags: { dataDir: h.config.data_dir },
    env: { LAKEWARD_TASK_QUEUE: h.taskQueue },
    open: async () => ws,
  });
  return { h, deps, app: createApp(deps), root, ws };
}

/** Ends the MDM job queues the test started, then the harness. */
export async function closeMdmTestApp(h: Harness | undefined): Promise<void> {
  if (!h) return;
  for (const type of ['mdm_ingest', 'mdm_match'])
    await h.env.client.workflow
      .getHandle(jobQueueWorkflowId(type, h.taskQueue))
      .terminate('test over')
      .catch(() => undefined);
  await h.teardown();
}

/** Waits for a job to end (answers its record, whatever its status). */
export function jobFinished(app: Express, jobId: string, timeoutMs = 240_000) {
  return eventually(
    async () => {
      const r = await request(app).get(`/api/jobs/${jobId}`).expect(200);
      if (!r.body.completed_at) throw new Error(`job ${jobId} is ${r.body.status}`);
      return r.body;
    },
    { timeoutMs, intervalMs: 250, what: `job ${jobId} to end` },
  );
}

/** Writes synthetic people, stores their model and registers their sources; answers the synthetic result. */
export async function syntheticPeople(app: Express, records: number, seed: number) {
  const gen = await request(app)
    .post('/api/mdm/synthetic')
    .send({ catalog: 'raw', schema: 'people', records, seed })
    .expect(201);
  await request(app).put('/api/mdm/models/person').send(gen.body.model).expect(201);
  for (const s of gen.body.sources) await request(app).post('/api/mdm/sources').send(s).expect(201);
  return gen.body;
}
