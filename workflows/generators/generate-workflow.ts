import { ActivityCancellationType, CancellationScope, isCancellation, proxyActivities } from '@temporalio/workflow';
import { NON_RETRYABLE_FAILURE_TYPES } from '../../activities/clone/logic/failures';
import { rootCauseMessage } from '../../activities/jobs/logic/root-cause';
import { planChunks } from '../../activities/generators/logic/plan';
import type { ChunkResult, GeneratorActivities } from '../../activities/generators';
import type { JobActivities } from '../../activities/jobs';
import type { GenerateInput } from '../../schemas/generators';

const retry = { maximumAttempts: 3, initialInterval: 1000, nonRetryableErrorTypes: [...NON_RETRYABLE_FAILURE_TYPES] };
const { prepareGeneration, generateChunk, commitGeneration } = proxyActivities<GeneratorActivities>({
  startToCloseTimeout: '2 hours',
  heartbeatTimeout: '60 seconds',
  retry,
  cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
});
const { cleanupGeneration } = proxyActivities<GeneratorActivities>({ startToCloseTimeout: '10 minutes', retry });
const { appendJobEvents, reportJobProgress } = proxyActivities<JobActivities>({
  startToCloseTimeout: '1 minute',
  retry: { maximumAttempts: 5 },
});

export interface GenerateResult {
  status: 'completed' | 'failed';
  error: string | null;
  kind: GenerateInput['kind'];
  destination: GenerateInput['destination'];
  seed: number;
  as_of: string;
  volume_path: string | null;
  table: string | null;
  files_written: number;
  bytes_written: number;
  lines_written: number;
  rows_committed: number;
  stale_files_removed: number;
  per_type: Record<string, { count: number; files: number; bytes: number; lines: number; rows: number }>;
  ai: { usage_id: string | null; budget: number; tokens_charged: number; calls: number; source: 'template' };
}

/**
 * A demo-data generator run (job type `generate`): prepare, the chunks two at a time (each writes its files and
 * stages its rows), then one commit of every row. Cancelled or failed before the commit, no row is written (so
 * none lacks its file); the staging folder is removed either way.
 */
export async function generateDemoWorkflow(input: GenerateInput): Promise<GenerateResult> {
  const chunks = planChunks(input.kind, input.counts, input.linesPerFile);
  const total = chunks.length;
  const result: GenerateResult = {
    status: 'completed',
    error: null,
    kind: input.kind,
    destination: input.destination,
    seed: input.seed,
    as_of: input.asOf,
    volume_path: null,
    table: null,
    files_written: 0,
    bytes_written: 0,
    lines_written: 0,
    rows_committed: 0,
    stale_files_removed: 0,
    per_type: Object.fromEntries(
      Object.entries(input.counts).map(([t, count]) => [t, { count, files: 0, bytes: 0, lines: 0, rows: 0 }]),
    ),
    // Generated text comes from templates; the budget is validated and reported, nothing is charged.
    ai: {
      usage_id: input.aiUsageId ?? null,
      budget: input.aiTokenBudget,
      tokens_charged: 0,
      calls: 0,
      source: 'template',
    },
  };
  try {
    const prepared = await prepareGeneration(input);
    result.table = prepared.table;
    result.volume_path = input.destination === 'direct_table' ? null : prepared.volumePath;
    await reportJobProgress(input.jobId, { completed: 0, total, chunks: `0/${total}` });
    let next = 0;
    let done = 0;
    let staged = 0;
    const add = (r: ChunkResult) => {
      const t = result.per_type[r.type];
      t.files += r.files;
      t.bytes += r.bytes;
      t.lines += r.lines;
      t.rows += r.rows;
      result.files_written += r.files;
      result.bytes_written += r.bytes;
      result.lines_written += r.lines;
      if (r.rows > 0) staged++;
    };
    const lane = async () => {
      while (next < total) {
        const chunk = chunks[next++];
        add(await generateChunk(input, chunk));
        done++;
        await reportJobProgress(input.jobId, {
          completed: done,
          total,
          chunks: `${done}/${total}`,
          files: result.files_written,
          bytes: result.bytes_written,
        });
      }
    };
    // Both lanes settle before anything else runs: after a cancel or a failure the cleanup below must not race a
    // chunk still writing its staged rows.
    const lanes = await Promise.allSettled([lane(), lane()]);
    const failed = lanes.find((l): l is PromiseRejectedResult => l.status === 'rejected');
    if (failed) throw failed.reason;
    const committed = await commitGeneration(input, staged);
    result.rows_committed = committed.rows;
    result.stale_files_removed = committed.staleFilesRemoved;
    await appendJobEvents(input.jobId, [
      {
        event: 'status',
        message: `${result.files_written} files, ${result.rows_committed} rows${result.table ? ` in ${result.table}` : ''}`,
        data: { files: result.files_written, bytes: result.bytes_written, rows: result.rows_committed },
      },
    ]);
  } catch (err) {
    await CancellationScope.nonCancellable(() => cleanupGeneration(input)).catch(() => undefined);
    if (isCancellation(err)) throw err;
    return { ...result, status: 'failed', error: rootCauseMessage(err) };
  }
  await cleanupGeneration(input);
  return result;
}
