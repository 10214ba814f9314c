import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { temporal } from '@temporalio/proto';
import { bundleWorkflowCode, Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { RECORD_UNDO_PATCH } from '../../workflows/pipeline/rollback';

/**
 * Pipeline runs recorded by `npx tsx test/replay/record-pipeline.ts` (a clone, a sync, a writing custom_sql, an
 * optimize and a notify, then a failing step with on_failure rollback) replay on the CURRENT workflow bundle.
 * archive/ holds a run recorded by the code before undo records existed: no record activity before the sync, the
 * write and the optimize, and a rollback that undid the clone only. The current code takes those paths behind
 * `patched('pipeline-record-undo-state')`, so such a run, still in flight at a deploy, goes on where it was.
 */
const DIR = path.join(__dirname, 'histories', 'pipeline');
const current = readdirSync(DIR).filter((f) => f.endsWith('.json'));
const archived = readdirSync(path.join(DIR, 'archive'))
  .filter((f) => f.endsWith('.json'))
  .map((f) => path.join('archive', f));

interface Recorded {
  workflowId: string;
  workflowType: string;
  history: { events: Record<string, unknown>[] };
}
const load = (file: string) => JSON.parse(readFileSync(path.join(DIR, file), 'utf8')) as Recorded;
const activities = (r: Recorded) =>
  r.history.events
    .map((e) => e.activityTaskScheduledEventAttributes as { activityType?: { name?: string } } | undefined)
    .map((a) => a?.activityType?.name)
    .filter(Boolean);
/** The ids of the patch markers (`core_patch`) the history recorded. */
const patchIds = (r: Recorded) =>
  r.history.events
    .map(
      (e) => e.markerRecordedEventAttributes as { markerName?: string; details?: Record<string, unknown> } | undefined,
    )
    .filter((m) => m?.markerName === 'core_patch')
    .flatMap((m) => (m!.details!['patch-data'] as { payloads: { data: string }[] }).payloads)
    .map((p) => (JSON.parse(Buffer.from(p.data, 'base64').toString('utf8')) as { id: string }).id);
const hasPatchMarker = (r: Recorded) => patchIds(r).includes(RECORD_UNDO_PATCH);

let bundle: WorkflowBundleWithSourceMap;
beforeAll(async () => {
  bundle = await bundleWorkflowCode({
    workflowsPath: require.resolve('../../workflows'),
    logger: { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} },
  });
}, 60_000);

test('a run from before undo records ran table-changing steps without recording them, and the current one records', () => {
  expect(archived.length).toBeGreaterThan(0);
  for (const file of archived) {
    const old = load(file);
    expect(old.workflowType).toBe('pipelineWorkflow');
    expect(activities(old)).not.toContain('recordPipelineStepBefore');
    expect(hasPatchMarker(old)).toBe(false);
    // The sync, the write and the optimize ran (what the current code records before), and a rollback began.
    expect(activities(old).filter((a) => a === 'runPipelineStep').length).toBeGreaterThanOrEqual(3);
    expect(activities(old)).toContain('pipelineRollbackLogs');
  }
  expect(current.length).toBeGreaterThan(0);
  for (const file of current) {
    const now = load(file);
    expect(activities(now).filter((a) => a === 'recordPipelineStepBefore')).toHaveLength(3);
    expect(hasPatchMarker(now)).toBe(true);
  }
});

test.each([...current, ...archived])(
  '%s replays deterministically on the current workflow code',
  async (file) => {
    const recorded = load(file);
    const history = temporal.api.history.v1.History.fromObject(recorded.history as object);
    await Worker.runReplayHistory({ workflowBundle: bundle }, history, recorded.workflowId);
  },
  60_000,
);
