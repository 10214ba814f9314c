import {
  RecommendationApplyJobInputSchema,
  RecommendationRefreshJobInputSchema,
  type RecommendationApplyJobInput,
  type RecommendationRefreshJobInput,
} from '../../schemas/finops-recommendations';
import type { JobTypeDefinition } from '../jobs/registry';

/** One refresh at a time (a second waits): each scans every table's storage metrics. */
export const recommendationsJobType: JobTypeDefinition<RecommendationRefreshJobInput> = {
  type: 'recommendations',
  workflowType: 'recommendationsRefreshWorkflow',
  inputSchema: RecommendationRefreshJobInputSchema,
  limits: () => ({ maxConcurrent: 1, maxQueueSize: 5, requestTimeoutMinutes: 120 }),
};

/** Applying a recommendation (warehouse edit, VACUUM, OPTIMIZE, drop): a job of its own, two at once. */
export const recommendationApplyJobType: JobTypeDefinition<RecommendationApplyJobInput> = {
  type: 'recommendation_apply',
  workflowType: 'recommendationApplyWorkflow',
  inputSchema: RecommendationApplyJobInputSchema,
  limits: () => ({ maxConcurrent: 2, maxQueueSize: 50, requestTimeoutMinutes: 360 }),
  describe: (row) => ({
    recommendation_id: (row.request as { recommendation_id?: string } | null)?.recommendation_id ?? null,
  }),
};
