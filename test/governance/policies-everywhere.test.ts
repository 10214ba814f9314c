import type { Express } from 'express';
import request from 'supertest';
import { createApp } from '../../api/app';
import type { AppDeps } from '../../api/deps';
import { ROLES, type Role } from '../../schemas/governance';
import { listJobs } from '../../store/jobs/jobs';
import { realStack, type RealStack } from '../jobs/real-stack';

/**
 * Access policies on every route that starts work writing a catalog: an editor under a deny rule on the `locked*`
 * catalogs gets 403 POLICY_DENIED naming the rule, and nothing is queued or written. (Clone, multi-clone and the
 * sync routes are covered in policies.test.ts.)
 */
const KEYS = Object.fromEntries(ROLES.map((r) => [r, `pe-${r}-key-0123456789`])) as Record<Role, string>;
const as = (role: Role) => ({ Authorization: `Bearer ${KEYS[role]}` });
const RULE = 'no-locked-writes';

let stack: RealStack;
let deps: AppDeps;
let app: Express;
beforeAll(async () => {
  stack = await realStack('policies-everywhere');
  deps = stack.appDeps();
  const keys = ROLES.map((role) => ({ name: `${role}-bot`, key: KEYS[role], key_env: null, role }));
  deps.config = {
    ...deps.config,
    api_server: { ...deps.config.api_server, keys },
    mdm: { ...deps.config.mdm, catalog: 'locked_mdm' },
  };
  app = createApp(deps);
  await request(app)
    .post('/api/rbac/policies')
    .set(as('admin'))
    .send({ name: RULE, principals: ['editor'], allowed_destinations: ['locked*'], deny: true })
    .expect(201);
}, 120_000);
afterAll(async () => stack?.teardown());

const clone = { source_catalog: 'prod', destination_catalog: 'locked' };

type Case = [name: string, method: 'post' | 'put', path: string | (() => Promise<string>), body: object];
const cases: Case[] = [
  ['continuous-sync start', 'post', '/api/continuous-sync/start', { ...clone, tables: ['sales.orders'] }],
  [
    'clone schedule create',
    'post',
    '/api/schedule',
    { name: 'pe-new', schedule: { interval: '1h' }, clone_options: clone },
  ],
  [
    'clone schedule update',
    'put',
    async () => {
      // An admin (not under the rule) makes the schedule; the editor may not point it at a locked catalog.
      const made = await request(app)
        .post('/api/schedule')
        .set(as('admin'))
        .send({
          name: 'pe-existing',
          schedule: { interval: '1h', enabled: false },
          clone_options: { source_catalog: 'prod', destination_catalog: 'prod_copy' },
        })
        .expect(201);
      return `/api/schedule/${made.body.schedule_id}`;
    },
    { schedule: { interval: '1h', enabled: false }, clone_options: clone },
  ],
  [
    'generate create-job',
    'post',
    '/api/generate/create-job',
    { ...clone, job_name: 'pe-job', schedule: '0 0 * * * ?' },
  ],
  [
    'convert-to-delta',
    'post',
    '/api/convert-to-delta',
    { targets: [{ fqn: 'locked.sales.orders', source_format: 'PARQUET' }], confirm_destructive: true },
  ],
  ['optimize', 'post', '/api/optimize', { source_catalog: 'locked' }],
  ['vacuum', 'post', '/api/vacuum', { source_catalog: 'locked' }],
  ['mdm ingest', 'post', '/api/mdm/ingest', { entity_type: 'customer' }],
  ['mdm match run', 'post', '/api/mdm/match/run', { entity_type: 'customer' }],
  ['mdm synthetic', 'post', '/api/mdm/synthetic', { catalog: 'locked_synth', records: 30 }],
  [
    'dq save-to-delta',
    'post',
    '/api/governance/dqx/checks/save-to-delta',
    { target_table: 'locked.governance.dqx_checks' },
  ],
];

describe('a deny rule refuses every catalog-writing route before anything starts', () => {
  test.each(cases)('%s: 403 naming the rule, no job queued', async (_name, method, path, body) => {
    const url = typeof path === 'string' ? path : await path();
    const jobsBefore = (await listJobs(deps.store.db)).length;
    const res = await request(app)[method](url).set(as('editor')).send(body);
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('POLICY_DENIED');
    expect(res.body.error.details).toEqual(
      expect.arrayContaining([expect.objectContaining({ message: `rule ${RULE}` })]),
    );
    expect((await listJobs(deps.store.db)).length).toBe(jobsBefore);
  });

  test('nothing was written: no stream, no schedule or job pointing at a locked catalog, no locked catalog', async () => {
    const streams = await request(app).get('/api/continuous-sync/streams').set(as('viewer')).expect(200);
    expect(streams.body).toEqual([]);
    const schedules = (await request(app).get('/api/schedule').set(as('viewer')).expect(200)).body as {
      name: string;
    }[];
    expect(schedules.map((s) => s.name)).toEqual(['pe-existing']);
    const ws = stack.h.open(stack.root);
    const catalogs = (await ws.listCatalogs()).map((c) => c.name);
    await ws.close?.();
    expect(catalogs.filter((c) => c.startsWith('locked'))).toEqual([]);
  });

  test('the same routes pass the check for a destination the rule does not cover', async () => {
    // 404/409/422 from the route itself, not 403: the policy check let it through.
    const res = await request(app).post('/api/optimize').set(as('editor')).send({ source_catalog: 'nowhere' });
    expect(res.status).toBe(404);
  });
});
