import { z } from 'zod';
import {
  ExecuteBodySchema,
  ExecutionSchema,
  PlaybookBodySchema,
  PlaybookIdParamsSchema,
  PlaybookSchema,
  PlaybookTemplateSchema,
} from '../../schemas/automation';
import { paginationQuery } from '../../schemas/common';
import { listExecutions, listPlaybooks } from '../../store/automation/repo';
import { defineRoutes, route } from '../middleware/route';
import {
  createPlaybook,
  executePlaybook,
  executionView,
  playbookView,
  removePlaybook,
  replacePlaybook,
  requirePlaybook,
} from './service';
import { PLAYBOOK_TEMPLATES } from './templates';

const params = PlaybookIdParamsSchema;
const refused = { 422: 'The trigger_config, a condition (unknown field or variable) or an action is refused' };

/** /api/playbooks: playbooks that act on events (or a cron), with an hourly limit and an execution history. */
export const automationRoutes = defineRoutes({
  name: 'automation',
  tags: ['playbooks'],
  routes: [
    route({
      method: 'get',
      path: '/playbooks',
      summary: 'List playbooks',
      response: { description: 'Playbooks', schema: z.object({ playbooks: z.array(PlaybookSchema) }) },
      handler: async ({ deps }) => ({ playbooks: (await listPlaybooks(deps.store.db)).map(playbookView) }),
    }),
    route({
      method: 'post',
      path: '/playbooks',
      summary: 'Create a playbook (trigger, CEL condition over event, actions, max_executions_per_hour)',
      request: { body: PlaybookBodySchema },
      response: { status: 201, description: 'Created', schema: PlaybookSchema },
      errors: refused,
      handler: async ({ deps, input }) => playbookView(await createPlaybook(deps, input.body)),
    }),
    route({
      method: 'get',
      path: '/playbooks/templates',
      summary: 'Ready playbooks to create from',
      response: { description: 'Templates', schema: z.object({ templates: z.array(PlaybookTemplateSchema) }) },
      handler: () => ({ templates: structuredClone(PLAYBOOK_TEMPLATES) }),
    }),
    route({
      method: 'get',
      path: '/playbooks/:playbook_id',
      summary: 'A playbook',
      request: { params },
      response: { description: 'The playbook', schema: PlaybookSchema },
      errors: { 404: 'No such playbook' },
      handler: async ({ deps, input }) => playbookView(await requirePlaybook(deps, input.params.playbook_id)),
    }),
    route({
      method: 'put',
      path: '/playbooks/:playbook_id',
      summary: 'Replace a playbook (a webhook left without secret keeps its stored one)',
      request: { params, body: PlaybookBodySchema },
      response: { description: 'The playbook', schema: PlaybookSchema },
      errors: { 404: 'No such playbook', ...refused },
      handler: async ({ deps, input }) =>
        playbookView(await replacePlaybook(deps, input.params.playbook_id, input.body)),
    }),
    route({
      method: 'delete',
      path: '/playbooks/:playbook_id',
      summary: 'Delete a playbook (its history stays)',
      request: { params },
      response: { description: 'Deleted', schema: z.object({ status: z.literal('deleted'), playbook_id: z.string() }) },
      errors: { 404: 'No such playbook' },
      handler: async ({ deps, input }) => {
        await removePlaybook(deps, input.params.playbook_id);
        return { status: 'deleted' as const, playbook_id: input.params.playbook_id };
      },
    }),
    route({
      method: 'post',
      path: '/playbooks/:playbook_id/execute',
      summary: 'Run a playbook now, bypassing its trigger, condition and hourly limit (dry_run performs nothing)',
      request: { params, body: ExecuteBodySchema },
      response: { description: 'The finished execution', schema: ExecutionSchema },
      errors: { 404: 'No such playbook', 503: 'Temporal is not configured' },
      handler: async ({ deps, input }) => executePlaybook(deps, input.params.playbook_id, input.body),
    }),
    route({
      method: 'get',
      path: '/playbooks/:playbook_id/history',
      summary: 'Executions of a playbook, newest first',
      request: { params, query: paginationQuery(50) },
      response: { description: 'Executions', schema: z.object({ executions: z.array(ExecutionSchema) }) },
      errors: { 404: 'No such playbook' },
      handler: async ({ deps, input }) => {
        await requirePlaybook(deps, input.params.playbook_id);
        const rows = await listExecutions(
          deps.store.db,
          input.params.playbook_id,
          input.query.limit,
          input.query.offset,
        );
        return { executions: rows.map(executionView) };
      },
    }),
  ],
});
