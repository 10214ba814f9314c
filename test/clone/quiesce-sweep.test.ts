import { createQuiesceActivities, sweepQuiescedGrants } from '../../activities/clone/quiesce/activities';
import { quiesceGrantsForJob } from '../../store/clone/quiesce-grants';
import { safetyFixture } from './safety-helpers';
import { seedSafetyCatalogs, sourceGrants } from './fixtures/safety-seed';

let fx: Awaited<ReturnType<typeof safetyFixture>>;
beforeAll(async () => {
  fx = await safetyFixture('sweep');
  await seedSafetyCatalogs(fx.ws);
});
afterAll(async () => fx?.cleanup());

const options = { source_catalog: 'prod', include_schemas: [], exclude_schemas: ['information_schema', 'default'] };

test('the start-up sweep gives back grants of jobs that no longer run, and leaves running jobs alone', async () => {
  const before = await sourceGrants(fx.ws);
  const q = createQuiesceActivities(fx.deps);
  await q.quiesceSource({ jobId: 'clone-gone', workspace: fx.ref, options });
  expect((await sourceGrants(fx.ws))['sales/etl']).toEqual(['USE SCHEMA']);

  expect(await sweepQuiescedGrants(fx.deps, async () => true)).toEqual([]);
  expect((await sourceGrants(fx.ws))['sales/etl']).toEqual(['USE SCHEMA']);

  expect(await sweepQuiescedGrants(fx.deps, async (jobId) => jobId !== 'clone-gone')).toEqual(['clone-gone']);
  expect(await sourceGrants(fx.ws)).toEqual(before);
  expect((await quiesceGrantsForJob(fx.store.db, 'clone-gone')).every((r) => r.status === 'restored')).toBe(true);
});

test('a retried quiesce step first gives back what it revoked, so nothing is lost or revoked twice', async () => {
  const before = await sourceGrants(fx.ws);
  const q = createQuiesceActivities(fx.deps);
  await q.quiesceSource({ jobId: 'clone-retry', workspace: fx.ref, options });
  const second = await q.quiesceSource({ jobId: 'clone-retry', workspace: fx.ref, options });
  expect(second.map((g) => `${g.schema}/${g.principal}`).sort()).toEqual(['hr/hr_team', 'sales/etl']);
  await q.releaseQuiesce('clone-retry');
  expect(await sourceGrants(fx.ws)).toEqual(before);
});
