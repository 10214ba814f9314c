import {
  RecommendationApplyBodySchema,
  RecommendationDismissBodySchema,
  RecommendationIdParams,
  RecommendationJobAcceptedSchema,
  RecommendationListQuerySchema,
  RecommendationListSchema,
  RecommendationPlanSchema,
  RecommendationRefreshBodySchema,
  RecommendationSchema,
  RecommendationSnoozeBodySchema,
  RecommendationSuggestBodySchema,
} from '../../schemas/finops-recommendations';
import { listRecommendations } from '../../store/finops/recommendations-repo';
import { waitForJob } from '../data-quality/run-service';
import { newJobId } from '../jobs/job-id';
import { submitJob } from '../jobs/service';
import { defineRoutes, route } from '../middleware/route';
import { recommendationsJobType } from './recommendations-job-types';
import { ensureRecommendationsSchedule } from './recommendations-schedule';
import {
  applyRecommendation,
  putAside,
  recommendationView,
  requireRecommendation,
  suggestRecommendation,
} from './recommendations-service';

const BASE = '/finops/recommendations';
const r2 = (n: number) => Math.round(n * 100) / 100;

function listOf(views: ReturnType<typeof recommendationView>[]) {
  return {
    recommendations: views,
    total_savings_usd_month: r2(views.reduce((a, v) => a + (v.estimated_savings_usd_month ?? 0), 0)),
  };
}

/**
 * Cost recommendations over the usage ledger and storage facts: list, refresh (a job; a daily Schedule too),
 * apply (admin; a job; dry run), dismiss, snooze, suggest (editors), applied. With and without `/api`.
 */
export const recommendationRoutes = defineRoutes({
  name: 'finops-recommendations',
  mounts: ['/api', '/'],
  routes: [
    route({
      method: 'get',
      path: BASE,
      summary: 'Recommendations by status (default open), highest estimated saving first',
      request: { query: RecommendationListQuerySchema },
      response: { description: 'Recommendations', schema: RecommendationListSchema },
      handler: async ({ deps, input: { query } }) => {
        const now = new Date();
        const views = (await listRecommendations(deps.store.db)).map((r) => recommendationView(r, now));
        return listOf(
          views.filter(
            (v) => (query.status === 'all' || v.status === query.status) && (!query.type || v.type === query.type),
          ),
        );
      },
    }),
    route({
      method: 'get',
      path: `${BASE}/applied`,
      summary: 'Applied recommendations, newest first',
      response: { description: 'Applied recommendations', schema: RecommendationListSchema },
      handler: async ({ deps }) => {
        const applied = (await listRecommendations(deps.store.db)).filter((r) => r.status === 'applied');
        applied.sort((a, b) => (b.appliedAt?.getTime() ?? 0) - (a.appliedAt?.getTime() ?? 0));
        return listOf(applied.map((r) => recommendationView(r)));
      },
    }),
    route({
      method: 'post',
      path: `${BASE}/refresh`,
      summary: 'Run the analysers as a `recommendations` job (202 with its id; `wait: true` answers with its result)',
      request: { body: RecommendationRefreshBodySchema },
      response: { status: 202, description: 'The refresh job', schema: RecommendationJobAcceptedSchema },
      otherResponses: {
        200: { description: 'wait: the ended job with its result', schema: RecommendationJobAcceptedSchema },
      },
      errors: { 429: 'A refresh is running and the queue is full', 503: 'Temporal is not configured' },
      handler: async ({ deps, res, input: { body } }) => {
        const jobId = newJobId(recommendationsJobType.type);
        const accepted = await submitJob(deps, recommendationsJobType, {
          jobId,
          input: { jobId },
          createdAt: new Date(),
          row: { request: { operation: 'refresh' } },
        });
        await ensureRecommendationsSchedule(deps);
        if (!body.wait) return accepted;
        const row = await waitForJob(deps, jobId, 30 * 60_000);
        // 200 once the job ended (its status and result), set here because the route's own status is 202.
        res.status(200).json({ ...accepted, status: row?.status ?? accepted.status, result: row?.summary ?? null });
        return undefined;
      },
    }),
    route({
      method: 'get',
      path: `${BASE}/:id`,
      summary: 'One recommendation',
      request: { params: RecommendationIdParams },
      response: { description: 'The recommendation', schema: RecommendationSchema },
      errors: { 404: 'No such recommendation' },
      handler: async ({ deps, input: { params } }) => {
        return recommendationView(await requireRecommendation(deps, params.id));
      },
    }),
    route({
      method: 'post',
      path: `${BASE}/:id/apply`,
      summary: 'Apply an open one-click recommendation as a job (admin); `dry_run: true` answers what would run',
      role: 'admin',
      request: { params: RecommendationIdParams, body: RecommendationApplyBodySchema },
      response: { status: 202, description: 'The apply job', schema: RecommendationJobAcceptedSchema },
      otherResponses: { 200: { description: 'Dry run: what would run', schema: RecommendationPlanSchema } },
      errors: {
        404: 'No such recommendation',
        409: 'Not open, or not one-click / auto (the message says which)',
        503: 'Temporal is not configured',
      },
      handler: async ({ deps, res, input: { params, body } }) => {
        const out = await applyRecommendation(deps, params.id, body);
        if (out.kind === 'plan') {
          res.status(200).json(out.body);
          return undefined;
        }
        return out.body;
      },
    }),
    route({
      method: 'post',
      path: `${BASE}/:id/dismiss`,
      summary: 'Dismiss for `days` (default 30); it shows open again afterwards if still found',
      request: { params: RecommendationIdParams, body: RecommendationDismissBodySchema },
      response: { description: 'The recommendation', schema: RecommendationSchema },
      errors: { 404: 'No such recommendation', 409: 'Not open' },
      handler: async ({ deps, input: { params, body } }) => putAside(deps, params.id, 'dismissed', body.days),
    }),
    route({
      method: 'post',
      path: `${BASE}/:id/snooze`,
      summary: 'Snooze for `days`; it shows open again afterwards if still found',
      request: { params: RecommendationIdParams, body: RecommendationSnoozeBodySchema },
      response: { description: 'The recommendation', schema: RecommendationSchema },
      errors: { 404: 'No such recommendation', 409: 'Not open' },
      handler: async ({ deps, input: { params, body } }) => putAside(deps, params.id, 'snoozed', body.days),
    }),
    route({
      method: 'post',
      path: `${BASE}/:id/suggest`,
      summary: 'Suggest applying (editors): recorded on the recommendation and notified to admins',
      request: { params: RecommendationIdParams, body: RecommendationSuggestBodySchema },
      response: { description: 'The recommendation', schema: RecommendationSchema },
      errors: { 404: 'No such recommendation', 409: 'Not open' },
      handler: async ({ deps, input: { params, body } }) => suggestRecommendation(deps, params.id, body.note),
    }),
  ],
});
