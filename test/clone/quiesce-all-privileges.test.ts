import { createQuiesceActivities, sweepQuiescedGrants } from '../../activities/clone/quiesce/activities';
import { quiesceGrantsForJob } from '../../store/clone/quiesce-grants';
import { safetyFixture } from './safety-helpers';
import { seedSafetyCatalogs, sourceGrants } from './fixtures/safety-seed';

let fx: Awaited<ReturnType<typeof safetyFixture>>;
beforeAll(async () => {
  fx = await safetyFixture('quiesce-all');
  await seedSafetyCatalogs(fx.ws);
  await fx.ws.grant({ type: 'SCHEMA', catalog: 'prod', schema: 'sales' }, 'owners', ['ALL PRIVILEGES']);
  await fx.ws.grant({ type: 'SCHEMA', catalog: 'prod', schema: 'hr' }, 'auditors', ['ALL PRIVILEGES', 'SELECT']);
});
afterAll(async () => fx?.cleanup());

const options = { source_catalog: 'prod', include_schemas: [], exclude_schemas: ['information_schema', 'default'] };
const READ_ONLY = ['EXECUTE', 'READ VOLUME', 'SELECT', 'USE SCHEMA'];

test('a principal holding ALL PRIVILEGES keeps only read privileges while quiesced and gets ALL PRIVILEGES back', async () => {
  const before = await sourceGrants(fx.ws);
  expect(before['sales/owners']).toEqual(['ALL PRIVILEGES']);
  const q = createQuiesceActivities(fx.deps);

  await q.quiesceSource({ jobId: 'clone-all', workspace: fx.ref, options });
  const during = await sourceGrants(fx.ws);
  expect(during['sales/owners']).toEqual(READ_ONLY);
  expect(during['hr/auditors']).toEqual(READ_ONLY);
  expect(during['sales/etl']).toEqual(['USE SCHEMA']);

  await q.releaseQuiesce('clone-all');
  const after = await sourceGrants(fx.ws);
  expect(after['sales/owners']).toEqual(['ALL PRIVILEGES']);
  expect(after['hr/auditors']).toEqual(['ALL PRIVILEGES', 'SELECT']);
  expect(after).toEqual(before);
});

test('ALL PRIVILEGES is recorded as such, so the start-up sweep after a crash grants it back exactly', async () => {
  const before = await sourceGrants(fx.ws);
  const q = createQuiesceActivities(fx.deps);
  await q.quiesceSource({ jobId: 'clone-all-crashed', workspace: fx.ref, options });
  const records = await quiesceGrantsForJob(fx.store.db, 'clone-all-crashed');
  const owners = records.find((r) => r.principal === 'owners');
  expect(owners).toMatchObject({ schemaName: 'sales', privileges: ['ALL PRIVILEGES'], status: 'revoked' });
  expect(owners?.interimPrivileges.sort()).toEqual(READ_ONLY);

  // The worker died and the job's workflow is gone: only the record can give ALL PRIVILEGES back.
  expect(await sweepQuiescedGrants(fx.deps, async () => false)).toEqual(['clone-all-crashed']);

  expect(await sourceGrants(fx.ws)).toEqual(before);
  expect((await quiesceGrantsForJob(fx.store.db, 'clone-all-crashed')).every((r) => r.status === 'restored')).toBe(
    true,
  );
});

test('a retried quiesce step gives back ALL PRIVILEGES first, so a second revoke still records it', async () => {
  const before = await sourceGrants(fx.ws);
  const q = createQuiesceActivities(fx.deps);
  await q.quiesceSource({ jobId: 'clone-all-retry', workspace: fx.ref, options });
  const second = await q.quiesceSource({ jobId: 'clone-all-retry', workspace: fx.ref, options });
  expect(second.find((g) => g.principal === 'owners')?.privileges).toEqual(['ALL PRIVILEGES']);
  expect((await sourceGrants(fx.ws))['sales/owners']).toEqual(READ_ONLY);
  await q.releaseQuiesce('clone-all-retry');
  expect(await sourceGrants(fx.ws)).toEqual(before);
});
