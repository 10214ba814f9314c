import { z } from 'zod';
import {
  PluginSchema,
  PluginToggleSchema,
  PolicyCreateSchema,
  PolicyNameParamsSchema,
  PolicySchema,
} from '../../schemas/governance';
import { deletePolicy, insertPolicy, listPolicies } from '../../store/governance/policies';
import { currentCaller } from '../middleware/auth';
import { conflict, notFound } from '../middleware/http-error';
import { defineRoutes, route } from '../middleware/route';
import { policyView } from './access';
import { listPlugins, togglePlugin } from './plugins';

/** Access policies and the plugin registry (`/api/rbac/policies`, `/api/plugins`). */
export const governanceRoutes = defineRoutes({
  name: 'governance',
  tags: ['governance'],
  routes: [
    route({
      method: 'get',
      path: '/rbac/policies',
      summary: 'Access policies in evaluation order (deny rules first, then the allow rules naming the caller)',
      response: { description: 'Policies', schema: z.array(PolicySchema) },
      handler: async ({ deps }) => (await listPolicies(deps.store.db)).map(policyView),
    }),
    route({
      method: 'post',
      path: '/rbac/policies',
      summary: 'Create an access policy (admin)',
      role: 'admin',
      request: { body: PolicyCreateSchema },
      response: { status: 201, description: 'The policy', schema: PolicySchema },
      errors: { 409: 'A policy with that name exists' },
      handler: async ({ deps, input: { body } }) => {
        const row = await insertPolicy(deps.store.db, {
          name: body.name,
          principals: body.principals,
          allowedSources: body.allowed_sources,
          allowedDestinations: body.allowed_destinations,
          allowedSchemas: body.allowed_schemas,
          allowedOperations: body.allowed_operations,
          deny: body.deny,
          description: body.description ?? null,
          createdBy: currentCaller().name,
        });
        if (!row) throw conflict(`An access policy named ${body.name} exists`);
        return policyView(row);
      },
    }),
    route({
      method: 'delete',
      path: '/rbac/policies/:name',
      summary: 'Delete an access policy (admin)',
      request: { params: PolicyNameParamsSchema },
      response: { description: 'The deleted policy', schema: PolicySchema },
      errors: { 404: 'No such policy' },
      handler: async ({ deps, input: { params } }) => {
        const row = await deletePolicy(deps.store.db, params.name);
        if (!row) throw notFound(`No access policy ${params.name}`);
        return policyView(row);
      },
    }),
    route({
      method: 'get',
      path: '/plugins',
      summary: 'Optional capabilities and whether each is enabled',
      response: { description: 'Plugins', schema: z.array(PluginSchema) },
      handler: ({ deps }) => listPlugins(deps),
    }),
    route({
      method: 'post',
      path: '/plugins/toggle',
      summary: 'Enable or disable a plugin (admin; persisted)',
      role: 'admin',
      request: { body: PluginToggleSchema },
      response: { description: 'The plugin', schema: PluginSchema },
      errors: { 404: 'No such plugin' },
      handler: ({ deps, input: { body } }) => togglePlugin(deps, body.name, body.enabled, currentCaller().name),
    }),
  ],
});
