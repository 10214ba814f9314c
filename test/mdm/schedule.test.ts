import { ScheduleNotFoundError } from '@temporalio/client';
import type { Express } from 'express';
import request from 'supertest';
import { createMdmScheduleActivities } from '../../activities/mdm/scheduled';
import { syntheticModel } from '../../activities/mdm/logic/synthetic-model';
import { createApp } from '../../api/app';
import type { AppDeps } from '../../api/deps';
import { mdmModelScheduleId, mdmServices } from '../../api/mdm/schedule';
import { jobQueueWorkflowId } from '../../workflows/jobs/definitions';
import { testAppDeps } from '../api/deps';
import { createHarness, eventually, type Harness } from '../helpers/harness';

let h: Harness;
let deps: AppDeps;
let app: Express;

beforeAll(async () => {
  h = await createHarness('mdm-schedule');
  const root = h.config.workspace.root;
  const temporal = { client: h.env.client, connection: h.env.client.connection, address: 'test' };
  deps = testAppDeps({
    store: h.store,
    temporal,
    flags: { dataDir: h.config.data_dir },
    env: { LAKEWARD_TASK_QUEUE: h.taskQueue },
    open: async () => h.open(root),
  });
  app = createApp(deps);
});
afterAll(async () => {
  for (const type of ['mdm_ingest', 'mdm_match'])
    await h.env.client.workflow
      .getHandle(jobQueueWorkflowId(type, h.taskQueue))
      .terminate('test over')
      .catch(() => undefined);
  await h?.teardown();
});

test("a model's cron schedule becomes a Temporal Schedule whose firing ingests, then matches; clearing it deletes the Schedule", async () => {
  const synthetic = await request(app)
    .post('/api/mdm/synthetic')
    .send({ catalog: 'raw', schema: 'people', records: 300, seed: 5 })
    .expect(201);

  // a cron Temporal cannot read is refused before anything is stored
  const bad = await request(app)
    .put('/api/mdm/models/person')
    .send({ ...syntheticModel(), schedule: '61 * * * *' });
  expect(bad.status).toBeGreaterThanOrEqual(400);
  expect(bad.status).toBeLessThan(500);
  expect(JSON.stringify(bad.body.error.details)).toContain('body.schedule');
  await request(app).get('/api/mdm/models/person').expect(404);

  await request(app)
    .put('/api/mdm/models/person')
    .send({ ...syntheticModel(), schedule: '30 2 * * *' })
    .expect(201);
  for (const s of synthetic.body.sources) await request(app).post('/api/mdm/sources').send(s).expect(201);
  const handle = h.env.client.schedule.getHandle(mdmModelScheduleId('person'));
  const described = await handle.describe();
  expect(described.action).toMatchObject({ type: 'startWorkflow', workflowType: 'mdmScheduledRunWorkflow' });
  expect(described.action.type === 'startWorkflow' && described.action.args).toEqual([{ entityType: 'person' }]);
  expect(described.spec.calendars?.[0]).toMatchObject({ hour: [{ start: 2, end: 2, step: 1 }] });
  expect(described.spec.calendars?.[0].minute).toEqual([{ start: 30, end: 30, step: 1 }]);

  // a second PUT with another cron updates the same Schedule
  await request(app)
    .put('/api/mdm/models/person')
    .send({ ...syntheticModel(), schedule: '0 4 * * 1' })
    .expect(200);
  expect((await handle.describe()).spec.calendars?.[0].hour).toEqual([{ start: 4, end: 4, step: 1 }]);

  await h.withWorker(
    async () => {
      await handle.trigger();
      const workflowId = await eventually(
        async () => (await handle.describe()).info.recentActions[0]?.action.workflow.workflowId,
        { what: 'the Schedule to start its workflow', timeoutMs: 30_000 },
      );
      const result = (await h.env.client.workflow.getHandle(workflowId).result()) as {
        ingest_job_id: string;
        match_job_id: string;
      };
      const ingest = await request(app).get(`/api/jobs/${result.ingest_job_id}`).expect(200);
      const match = await request(app).get(`/api/jobs/${result.match_job_id}`).expect(200);
      expect([ingest.body.job_type, ingest.body.status]).toEqual(['mdm_ingest', 'completed']);
      expect([match.body.job_type, match.body.status]).toEqual(['mdm_match', 'completed']);
      // the match started after the ingest ended, and read what it wrote
      expect(new Date(match.body.created_at).getTime()).toBeGreaterThanOrEqual(
        new Date(ingest.body.completed_at).getTime(),
      );
      expect(match.body.result.records).toBeGreaterThan(250);
      const golden = await request(app).get('/api/mdm/entities?entity_type=person&limit=5').expect(200);
      expect(golden.body.length).toBeGreaterThan(0);
    },
    { activities: () => createMdmScheduleActivities({ store: h.store, services: mdmServices(deps) }) },
  );

  await request(app)
    .put('/api/mdm/models/person')
    .send({ ...syntheticModel(), schedule: null })
    .expect(200);
  await expect(handle.describe()).rejects.toBeInstanceOf(ScheduleNotFoundError);
}, 240_000);
