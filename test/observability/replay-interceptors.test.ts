import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { temporal } from '@temporalio/proto';
import { bundleWorkflowCode, Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { tracingOff } from '../../platform/observability/tracing';
import { WORKFLOW_INTERCEPTOR_MODULES, workerTelemetry } from '../../workers/telemetry';

/**
 * Workers bundle the OpenTelemetry and job interceptors with the workflows (workers/telemetry.ts). They change
 * headers and spans only, never a workflow's commands: every recorded history still replays with them bundled,
 * so turning this release on leaves running jobs deterministic.
 */
const DIR = path.join(__dirname, '../replay/histories');
const files = [
  ...readdirSync(DIR).filter((f) => f.endsWith('.json')),
  ...readdirSync(path.join(DIR, 'archive'))
    .filter((f) => f.endsWith('.json'))
    .map((f) => path.join('archive', f)),
];

let bundle: WorkflowBundleWithSourceMap;
beforeAll(async () => {
  bundle = await bundleWorkflowCode({
    workflowsPath: require.resolve('../../workflows'),
    workflowInterceptorModules: WORKFLOW_INTERCEPTOR_MODULES,
    logger: { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} },
  });
}, 60_000);

test.each(files)('%s replays with the tracing and job interceptors bundled', async (file) => {
  const recorded = JSON.parse(readFileSync(path.join(DIR, file), 'utf8')) as { workflowId: string; history: object };
  const history = temporal.api.history.v1.History.fromObject(recorded.history);
  const { sinks } = workerTelemetry(tracingOff());
  await Worker.runReplayHistory({ workflowBundle: bundle, sinks }, history, recorded.workflowId);
});
