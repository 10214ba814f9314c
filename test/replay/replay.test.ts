import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { temporal } from '@temporalio/proto';
import { bundleWorkflowCode, Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';

/**
 * Replays recorded histories (test/replay/histories, written by `npm run test:record-histories`) against the
 * CURRENT workflow bundle (workflows/index.ts), as a worker would after a deploy with those workflows still
 * running. A change that makes a workflow take different steps for the same history (a reordered activity, a
 * new timer, a renamed child) fails here with Temporal's DeterminismViolationError instead of in production.
 */
const DIR = path.join(__dirname, 'histories');
const ARCHIVE = path.join(DIR, 'archive');
const files = readdirSync(DIR).filter((f) => f.endsWith('.json'));
/** Histories recorded by earlier workflow code: jobs it started may still run after a deploy. */
const archived = readdirSync(ARCHIVE)
  .filter((f) => f.endsWith('.json'))
  .map((f) => path.join('archive', f));

let bundle: WorkflowBundleWithSourceMap;
beforeAll(async () => {
  bundle = await bundleWorkflowCode({
    workflowsPath: require.resolve('../../workflows'),
    logger: { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} },
  });
}, 60_000);

test('the recorded histories cover the clone engine, the job queue and rollback', () => {
  const types = files.map((f) => (JSON.parse(readFileSync(path.join(DIR, f), 'utf8')) as Recorded).workflowType);
  expect(new Set(types)).toEqual(
    new Set(['cloneCatalogWorkflow', 'cloneSchemaWorkflow', 'jobQueueWorkflow', 'rollbackWorkflow']),
  );
});

test('a one-schema job is recorded, and it ran that schema inside the job workflow', () => {
  const one = JSON.parse(readFileSync(path.join(DIR, 'clone-catalog-one-schema.json'), 'utf8')) as Recorded;
  const text = JSON.stringify(one.history);
  // Its tables were copied by activities of the job workflow itself, and no schema workflow was started.
  expect(text).toMatch(/"activityType":\{"name":"cloneTables(AndFinish)?"\}/);
  expect(text).not.toContain('startChildWorkflowExecutionInitiatedEventAttributes');
});

test.each([...files, ...archived])('%s replays deterministically on the current workflow code', async (file) => {
  const recorded = JSON.parse(readFileSync(path.join(DIR, file), 'utf8')) as Recorded;
  // The proto's own fromObject, not the SDK's historyFromJSON: this install gives @temporalio/common a second
  // protobufjs whose JSON reader rejects @temporalio/proto's types ("type must be a Type").
  const history = temporal.api.history.v1.History.fromObject(recorded.history as object);
  await Worker.runReplayHistory({ workflowBundle: bundle }, history, recorded.workflowId);
});

interface Recorded {
  workflowId: string;
  workflowType: string;
  history: unknown;
}
