import { ActivityCancellationType, proxyActivities } from '@temporalio/workflow';
import { NON_RETRYABLE_FAILURE_TYPES } from '../../activities/clone/logic/failures';
import type { JobActivities } from '../../activities/jobs';
import type { MdmActivities } from '../../activities/mdm';
import type { MdmMatchInput } from '../../schemas/mdm-runs';

const activities = proxyActivities<MdmActivities>({
  startToCloseTimeout: '6 hours',
  heartbeatTimeout: '30 seconds',
  retry: {
    maximumAttempts: 3,
    initialInterval: 1000,
    backoffCoefficient: 2,
    nonRetryableErrorTypes: [...NON_RETRYABLE_FAILURE_TYPES],
  },
  cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
});
const { appendJobEvents, reportJobProgress } = proxyActivities<JobActivities>({
  startToCloseTimeout: '1 minute',
  retry: { maximumAttempts: 5 },
});

const STEPS = [
  'blocking',
  'comparing',
  'training',
  'scoring',
  'clustering',
  'negative_match',
  'publishing',
  'cases',
] as const;

/**
 * A match run (job type `mdm_match`): blocking (pair counts first, the cap before any pair is built), comparing,
 * training (u from a seeded sample, λ and m by EM), scoring, clustering (connected components in SQL),
 * negative-match filtering (only the clusters touching an active rule are re-clustered, in the worker) and
 * publishing the golden records. Each step is one activity; the report gives its time.
 */
export async function mdmMatchWorkflow(input: MdmMatchInput) {
  const base = { runId: input.jobId, catalog: input.catalog, model: input.model };
  const step_ms: Record<string, number> = {};
  let done = 0;
  const run = async <T>(name: (typeof STEPS)[number], fn: () => Promise<T>): Promise<T> => {
    await reportJobProgress(input.jobId, { completed: done, total: STEPS.length, step: name });
    const started = new Date().getTime();
    const result = await fn();
    step_ms[name] = new Date().getTime() - started;
    done++;
    return result;
  };
  const incremental = input.mode === 'incremental';
  const prepared = await run('blocking', () =>
    activities.mdmMatchPrepare({ ...base, maxPairs: input.maxPairs, incremental }),
  );
  await appendJobEvents(input.jobId, [
    {
      event: 'table_started',
      message: `${prepared.records} records (${prepared.changed} new or changed); candidate pairs by rule: ${prepared.blocking.map((b) => `${b.rule} ${b.pairs}`).join(', ')}`,
      data: { records: prepared.records, blocking: prepared.blocking },
    },
  ]);
  const pairsPerRule = await run('comparing', () => activities.mdmMatchCompare({ ...base, incremental }));
  // Incremental runs (and full ones told not to retrain) score with the model the last run trained.
  const previous = input.previousParams;
  const trained = await run('training', async () =>
    previous
      ? { ...previous, iterations: 0, patterns: 0 }
      : activities.mdmMatchTrain({ ...base, seed: input.seed, sampleSize: input.sampleSize }),
  );
  const decisions = await activities.mdmMatchDecisions({ entityType: input.entityType });
  const scored = await run('scoring', () =>
    activities.mdmMatchScore({ ...base, params: trained, mustLinks: decisions.mustLinks, incremental }),
  );
  const clustered = await run('clustering', () => activities.mdmMatchCluster({ ...base, incremental }));
  const negative = await run('negative_match', async () => {
    // A steward's rejected pair is kept apart like a pair rule (its id names the pair, not a stored rule).
    const rejected = decisions.cannotLinks.map(([a, b]) => ({
      id: `cannot_link:${a}|${b}`,
      type: 'pair' as const,
      members: [[a], [b]],
      predicate: null,
    }));
    const rules = [...(await activities.mdmMatchRules({ entityType: input.entityType })), ...rejected];
    const applied = await activities.mdmMatchNegative({ ...base, rules });
    await activities.mdmMatchRecordBlocked({ runId: input.jobId, blocked: applied.blocked });
    return { ...applied, rules: rules.length - rejected.length };
  });
  const golden = await run('publishing', async () => {
    // steward overrides are part of the one overwrite that publishes the golden records
    return activities.mdmMatchPublish({
      ...base,
      ts: new Date().toISOString(),
      overrides: decisions.overrides,
      incremental,
    });
  });
  const cases = await run('cases', () =>
    activities.mdmMatchCases({ ...base, params: trained, slaCalendar: input.slaCalendar, decisions }),
  );
  await reportJobProgress(input.jobId, { completed: STEPS.length, total: STEPS.length, step: 'done' });
  await appendJobEvents(input.jobId, [
    {
      event: 'table_finished',
      message:
        `${clustered.clusters} golden records (${golden.created} created, ${golden.merged} merged, ${golden.archived} archived); ` +
        `pairs: ${scored.bands.merged} merged, ${scored.bands.reviewable} reviewable, ${scored.bands.suspected} suspected`,
      data: { status: 'completed', golden },
    },
  ]);
  return {
    status: 'completed' as const,
    error: null,
    entity_type: input.entityType,
    mode: input.mode,
    records: prepared.records,
    changed_records: prepared.changed,
    retrained: !previous,
    blocking: prepared.blocking,
    pairs_per_rule: pairsPerRule,
    bands_per_rule: scored.per_rule,
    bands: scored.bands,
    training: {
      lambda: trained.lambda,
      m: trained.m,
      u: trained.u,
      em_iterations: trained.iterations,
      patterns: trained.patterns,
    },
    clusters: clustered.clusters + negative.added,
    negative_match: {
      rules: negative.rules,
      clusters_reclustered: negative.components,
      records_reclustered: negative.records,
      blocked_attempts: Object.fromEntries(
        Object.entries(negative.blocked).filter(([id]) => !id.startsWith('cannot_link:')),
      ),
      rejected_pairs_kept_apart: Object.keys(negative.blocked).filter((id) => id.startsWith('cannot_link:')).length,
    },
    cluster_iterations: clustered.iterations,
    golden_records: golden,
    cases_opened: cases.opened,
    step_ms,
  };
}
