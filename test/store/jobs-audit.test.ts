import type { Store } from '../../store/db';
import { auditForJob, recordAudit } from '../../store/audit/repo';
import { createJob, finishJob, getJob, listJobs, markJobStarted } from '../../store/jobs/jobs';
import { createTestStore, storeBackends } from '../helpers/db';

describe.each(storeBackends())('jobs and audit on %s', (backend) => {
  let store: Store;
  beforeAll(async () => {
    store = await createTestStore(backend);
  });
  afterAll(async () => {
    await store?.close();
  });

  test('a job is recorded once per job id, then started and finished with its summary', async () => {
    const job = { jobId: 'clone-1', jobType: 'clone', status: 'queued', sourceCatalog: 'a', destinationCatalog: 'b' };
    const first = await createJob(store.db, { ...job, request: { clone_type: 'DEEP' } });
    const again = await createJob(store.db, { ...job, status: 'ignored' });
    expect(again).toEqual(first);

    await markJobStarted(store.db, 'clone-1');
    const done = await finishJob(store.db, 'clone-1', { status: 'completed', summary: { tables_cloned: 3 } });
    expect(done).toMatchObject({ status: 'completed', summary: { tables_cloned: 3 }, error: null });
    const row = await getJob(store.db, 'clone-1');
    expect(row!.startedAt).toBeInstanceOf(Date);
    expect(row!.completedAt!.getTime()).toBeGreaterThanOrEqual(row!.startedAt!.getTime());
    expect(row!.request).toEqual({ clone_type: 'DEEP' });
  });

  test('jobs list newest first and filter by type and status', async () => {
    const t0 = Date.parse('2026-01-01T00:00:00Z');
    for (const [i, type] of ['sync', 'clone', 'sync'].entries()) {
      await createJob(store.db, {
        jobId: `j-${i}`,
        jobType: type,
        status: 'queued',
        createdAt: new Date(t0 + i * 1000),
      });
    }
    const syncs = await listJobs(store.db, { jobType: 'sync' });
    expect(syncs.map((j) => j.jobId)).toEqual(['j-2', 'j-0']);
    expect(await listJobs(store.db, { jobType: 'sync', status: 'completed' })).toEqual([]);
    expect(await listJobs(store.db, { limit: 1, offset: 1 })).toHaveLength(1);
  });

  test('audit rows come back in the order they happened with their details', async () => {
    await recordAudit(store.db, { jobId: 'clone-1', action: 'start', status: 'ok', createdAt: new Date(1000) });
    await recordAudit(store.db, {
      jobId: 'clone-1',
      action: 'finish',
      status: 'failed',
      durationMs: 1234,
      error: 'boom',
      details: { tables_failed: 1 },
      createdAt: new Date(2000),
    });
    const rows = await auditForJob(store.db, 'clone-1');
    expect(rows.map((r) => [r.action, r.status, r.durationMs, r.details])).toEqual([
      ['start', 'ok', null, null],
      ['finish', 'failed', 1234, { tables_failed: 1 }],
    ]);
    expect(await auditForJob(store.db, 'nope')).toEqual([]);
  });
});
