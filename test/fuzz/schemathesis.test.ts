import pino from 'pino';
import request from 'supertest';
import type { AppDeps } from '../../api/deps';
import { createWorkspaceResolver } from '../../api/middleware/workspaces';
import { startServer, type RunningServer } from '../../api/server';
import type { Config } from '../../config/load';
import { seedDemo } from '../../platform/local/demo/seed';
import { openPlatformWorkspace } from '../../workers/open-workspace';
import { createHarness, eventually, type Harness } from '../helpers/harness';
import { findings, runSchemathesis } from './run-schemathesis';

/**
 * Bounded fuzz, part of `npm test`: schemathesis over every operation in /api/openapi.json against a real stack
 * (API on a port, a worker with the real activities, the Temporal dev server, a local lakehouse holding the demo
 * catalog). Its phases `examples` (the document's own examples) and `fuzzing` (MAX_EXAMPLES generated cases per
 * operation, valid and invalid, from a fixed seed) keep it to a few minutes over some 490 operations on two cores;
 * scripts/fuzz.sh is the long form (200 examples, plus the coverage and stateful phases).
 */
const MAX_EXAMPLES = 2;
const SEED = 20261124;
const PHASES = ['examples', 'fuzzing'];

let h: Harness;
let config: Config;
beforeAll(async () => {
  h = await createHarness('fuzz');
  // The API starts jobs on the harness's own task queue, where this file's worker polls.
  config = { ...h.config, temporal: { ...h.config.temporal, task_queue: h.taskQueue } };
  await seedDemo({ root: config.workspace.root, catalog: 'demo_sales', scale: 'small' });
}, 180_000);
afterAll(async () => h?.teardown());

function apiDeps(): AppDeps {
  const { client, connection } = h.env;
  return {
    config,
    store: h.store,
    temporal: { client, connection, address: process.env.TEMPORAL_TEST_ADDRESS ?? 'test' },
    logger: pino({ level: 'silent' }),
    workspaces: createWorkspaceResolver(config, openPlatformWorkspace),
    startedAt: new Date(),
  };
}

/** A clone of the demo catalog run to its end, so job operations have a real id to act on. */
async function finishedCloneJob(server: RunningServer): Promise<string> {
  const accepted = await request(server.url)
    .post('/api/clone')
    .send({ source_catalog: 'demo_sales', destination_catalog: 'demo_fuzz_copy' })
    .expect(200);
  const jobId = accepted.body.job_id as string;
  await eventually(
    async () => {
      const job = (await request(server.url).get(`/api/clone/${jobId}`).expect(200)).body;
      return ['completed', 'failed', 'cancelled'].includes(job.status) && job;
    },
    { what: `clone job ${jobId} to end`, timeoutMs: 120_000, intervalMs: 500 },
  );
  return jobId;
}

test('schemathesis finds no 5xx and no response outside the document on any operation', async () => {
  const run = await h.withWorker(
    async () => {
      const server = await startServer(apiDeps(), { host: '127.0.0.1', port: 0 });
      try {
        const jobId = await finishedCloneJob(server);
        return await runSchemathesis({
          url: server.url,
          jobId,
          maxExamples: MAX_EXAMPLES,
          seed: SEED,
          phases: PHASES,
          timeoutMs: 600_000,
        });
      } finally {
        await server.close(1000);
      }
    },
    { deps: { config } },
  );
  // On failure jest prints what schemathesis found: each failing operation, check and a curl to reproduce it.
  expect({ exitCode: run.exitCode, found: run.exitCode === 0 ? '' : findings(run.output) }).toEqual({
    exitCode: 0,
    found: '',
  });
  // Every operation of the document was exercised, not an empty selection.
  expect(run.output).toMatch(/Operations:\s+(\d+) selected \/ \1 total/);
}, 900_000);
