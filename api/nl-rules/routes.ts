import { z } from 'zod';
import { explainCheck } from '../../activities/nl-rules/logic';
import {
  BatchBodySchema,
  BatchResultSchema,
  ExplainBodySchema,
  FromTextBodySchema,
  ParsedRuleSchema,
} from '../../schemas/nl-rules';
import { HttpError } from '../middleware/http-error';
import { defineRoutes, route } from '../middleware/route';
import { answer, refused, saveChecks, tableColumns } from './service';

/** /api/nl-rules: plain-English rules to DQX checks with a fixed grammar (no model), and checks back to English. */
export const nlRuleRoutes = defineRoutes({
  name: 'nl-rules',
  tags: ['nl-rules'],
  routes: [
    route({
      method: 'post',
      path: '/nl-rules/from-natural-language',
      summary: 'One rule in plain English → DQX check(s) on the table (save: store them as its checks)',
      request: { body: FromTextBodySchema },
      response: { description: 'The checks', schema: ParsedRuleSchema },
      errors: { 404: 'No such table', 422: 'The rule does not parse or names an unknown column (with suggestions)' },
      handler: async ({ deps, input: { body } }) => {
        const a = answer(body.text, await tableColumns(deps, body.table_fqn));
        if (!a.ok) throw refused(a);
        const saved = body.save ? { saved_check_ids: await saveChecks(deps, body.table_fqn, a.checks) } : {};
        return { check: a.checks[0], checks: a.checks, confidence: a.confidence, explanation: a.explanation, ...saved };
      },
    }),
    route({
      method: 'post',
      path: '/nl-rules/batch-parse',
      summary: 'Up to 100 rules on one table; each answers its checks or its error',
      role: 'viewer',
      request: { body: BatchBodySchema },
      response: { description: 'One result per rule, in order', schema: BatchResultSchema },
      errors: { 404: 'No such table' },
      handler: async ({ deps, input: { body } }) => {
        const columns = await tableColumns(deps, body.table_fqn);
        const results = body.rules.map((text) => {
          const a = answer(text, columns);
          return a.ok
            ? { text, ok: true, checks: a.checks, explanation: a.explanation, confidence: a.confidence }
            : { text, ok: false, error: a.error, suggestions: a.suggestions };
        });
        const parsed = results.filter((r) => r.ok).length;
        return { table_fqn: body.table_fqn, parsed, failed: results.length - parsed, results };
      },
    }),
    route({
      method: 'post',
      path: '/nl-rules/explain',
      summary: 'A DQX check as one English sentence (which parses back to the same check)',
      role: 'viewer',
      request: { body: ExplainBodySchema },
      response: { description: 'The sentence', schema: z.object({ explanation: z.string() }) },
      errors: { 422: 'A check function or filter the grammar has no sentence for' },
      handler: ({ input: { body } }) => {
        const s = explainCheck(body.rule);
        if (!s)
          throw new HttpError(422, 'UNSUPPORTED', `no sentence for ${body.rule.check.function} with these arguments`, [
            { path: 'body.rule.check.function', message: 'not one of the functions the grammar reads' },
          ]);
        return { explanation: s };
      },
    }),
  ],
});
