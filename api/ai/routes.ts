import { z } from 'zod';
import { SummarizeRequestSchema, SummarizeResponseSchema, UsageSchema } from '../../schemas/ai';
import { getUsage } from '../../store/ai/usage';
import { callerOf } from '../middleware/auth';
import { HttpError } from '../middleware/http-error';
import { defineRoutes, route } from '../middleware/route';
import { summarize } from './summarize';

export const aiRoutes = defineRoutes({
  name: 'ai',
  routes: [
    route({
      method: 'post',
      path: '/ai/summarize',
      role: 'viewer',
      summary: 'Explain a query or summarise data: engine facts, a model within the token budget, else a template',
      request: { body: SummarizeRequestSchema },
      response: {
        description: 'The summary, where it came from, the engine facts and the tokens spent',
        schema: SummarizeResponseSchema,
      },
      errors: { 403: 'The query reads a table outside the caller’s access policies', 404: 'No such statement' },
      handler: ({ deps, req, input }) => summarize(deps, req, callerOf(req), input.body),
    }),
    route({
      method: 'get',
      path: '/ai/usage/:usageId',
      summary: 'What one AI-using request or job spent: backend, model, budget, calls, tokens charged',
      request: { params: z.object({ usageId: z.string().min(1).max(128) }) },
      response: { description: 'The usage row', schema: UsageSchema },
      errors: { 404: 'No such usage id' },
      handler: async ({ deps, input }) => {
        const u = await getUsage(deps.store.db, input.params.usageId);
        if (!u) {
          throw new HttpError(404, 'NOT_FOUND', `ai usage ${input.params.usageId} does not exist`, [
            { path: 'params.usageId', message: 'unknown usage id' },
          ]);
        }
        return {
          usage_id: u.id,
          route: u.route,
          job_id: u.jobId,
          backend: u.backend as z.infer<typeof UsageSchema>['backend'],
          model: u.model,
          budget: u.budget,
          calls: u.calls,
          failed_calls: u.failedCalls,
          budget_denials: u.budgetDenials,
          tokens_charged: u.tokensCharged,
          remaining: Math.max(0, u.budget - u.tokensCharged),
          created_at: u.createdAt.toISOString(),
          updated_at: u.updatedAt.toISOString(),
        };
      },
    }),
  ],
});
