import { z } from 'zod';
import { savedTargetSpec, workspaceIdentity } from '../../platform/saved-target';
import {
  credentialProblems,
  TargetCreateSchema,
  TargetNameParamsSchema,
  TargetSchema,
  TargetUpdateSchema,
  WhoAmIRequestSchema,
  WhoAmISchema,
  type TargetCreate,
  type TargetUpdate,
} from '../../schemas/targets';
import { configTargetCipher } from '../../store/targets/cipher';
import {
  deleteTarget,
  getTarget,
  getTargetWithCredentials,
  listTargets,
  saveTarget,
  type TargetView,
} from '../../store/targets/repo';
import type { AppDeps } from '../deps';
import { badRequest, conflict, notFound } from '../middleware/http-error';
import { defineRoutes, route } from '../middleware/route';

const CREDENTIAL_KEYS = ['token', 'client_id', 'client_secret', 'tenant_id', 'profile'] as const;

/** The API's view of a saved target: which credentials are set, never their values. */
export function targetBody(t: TargetView): z.input<typeof TargetSchema> {
  return {
    name: t.name,
    host: t.host,
    auth_method: t.authMethod,
    warehouse_id: t.warehouseId,
    data_sync_mode: t.syncMode,
    auto_handle_masks: t.autoHandleMasks,
    keep_share: t.keepShare,
    credentials_set: t.credentialKeys,
    created_at: t.createdAt.toISOString(),
    updated_at: t.updatedAt.toISOString(),
  };
}

function credentialsOf(b: TargetCreate | TargetUpdate): Record<string, string> | undefined {
  const c = Object.fromEntries(CREDENTIAL_KEYS.filter((k) => b[k]).map((k) => [k, b[k]!]));
  return Object.keys(c).length ? c : undefined;
}

const cipherOf = (deps: AppDeps) => configTargetCipher(deps.config);

async function requireTarget(deps: AppDeps, name: string): Promise<TargetView> {
  const t = await getTarget(deps.store.db, name);
  if (!t) throw notFound(`No saved target named "${name}"`);
  return t;
}

/**
 * Saved target connections: `GET/POST /api/targets`, `GET/PUT/DELETE /api/targets/{name}` and
 * `POST /api/target/whoami`. Credentials are sealed with AES-256-GCM before they reach the store.
 */
export const targetRoutes = defineRoutes({
  name: 'targets',
  routes: [
    route({
      method: 'get',
      path: '/targets',
      summary: 'List saved target connections (credentials never shown: only which ones are set)',
      response: { description: 'Saved targets', schema: z.array(TargetSchema) },
      handler: async ({ deps }) => (await listTargets(deps.store.db)).map(targetBody),
    }),
    route({
      method: 'post',
      path: '/targets',
      summary: 'Save a target connection (credentials encrypted at rest, never returned)',
      request: { body: TargetCreateSchema },
      response: { status: 201, description: 'The saved target', schema: TargetSchema },
      errors: { 409: 'A target with this name exists (update it with PUT)' },
      handler: async ({ deps, input: { body } }) => {
        if (await getTarget(deps.store.db, body.name)) throw conflict(`A target named "${body.name}" exists`);
        const saved = await saveTarget(deps.store.db, cipherOf(deps), {
          name: body.name,
          host: body.host,
          authMethod: body.auth_method,
          credentials: credentialsOf(body) ?? {},
          warehouseId: body.warehouse_id,
          syncMode: body.data_sync_mode,
          autoHandleMasks: body.auto_handle_masks,
          keepShare: body.keep_share,
        });
        return targetBody(saved);
      },
    }),
    route({
      method: 'get',
      path: '/targets/:name',
      summary: 'One saved target connection',
      request: { params: TargetNameParamsSchema },
      response: { description: 'The saved target', schema: TargetSchema },
      errors: { 404: 'No such target' },
      handler: async ({ deps, input: { params } }) => targetBody(await requireTarget(deps, params.name)),
    }),
    route({
      method: 'put',
      path: '/targets/:name',
      summary: 'Update a saved target; credentials sent replace the saved ones, none sent keeps them',
      request: { params: TargetNameParamsSchema, body: TargetUpdateSchema },
      response: { description: 'The saved target', schema: TargetSchema },
      errors: { 404: 'No such target' },
      handler: async ({ deps, input: { params, body } }) => {
        const old = await requireTarget(deps, params.name);
        const credentials = credentialsOf(body);
        const authMethod = body.auth_method ?? old.authMethod;
        if (credentials || body.auth_method) {
          const problems = credentialProblems({ ...(credentials ?? {}), auth_method: authMethod });
          // Changing the auth method needs that method's credentials in the same request.
          if (problems.length && (credentials || authMethod !== old.authMethod))
            throw badRequest('Credentials missing for the auth method', problems);
        }
        const saved = await saveTarget(deps.store.db, cipherOf(deps), {
          name: old.name,
          host: body.host ?? old.host,
          authMethod,
          credentials,
          warehouseId: body.warehouse_id ?? old.warehouseId,
          syncMode: body.data_sync_mode ?? old.syncMode,
          autoHandleMasks: body.auto_handle_masks ?? old.autoHandleMasks,
          keepShare: body.keep_share ?? old.keepShare,
          extra: old.extra,
        });
        return targetBody(saved);
      },
    }),
    route({
      method: 'delete',
      path: '/targets/:name',
      summary: 'Delete a saved target connection',
      request: { params: TargetNameParamsSchema },
      response: { description: 'Deleted', schema: z.object({ name: z.string(), deleted: z.literal(true) }) },
      errors: { 404: 'No such target' },
      handler: async ({ deps, input: { params } }) => {
        if (!(await deleteTarget(deps.store.db, params.name))) throw notFound(`No saved target named "${params.name}"`);
        return { name: params.name, deleted: true as const };
      },
    }),
    route({
      method: 'post',
      path: '/target/whoami',
      summary: 'The identity the saved credentials of a target resolve to (asks the target workspace)',
      request: { body: WhoAmIRequestSchema },
      role: 'viewer',
      response: { description: 'Identity', schema: WhoAmISchema },
      errors: { 404: 'No such target', 502: 'The target workspace refused or did not answer' },
      handler: async ({ deps, input: { body } }) => {
        const t = await getTargetWithCredentials(deps.store.db, cipherOf(deps), body.name);
        if (!t) throw notFound(`No saved target named "${body.name}"`);
        const ws = await deps.workspaces.open(savedTargetSpec(t));
        const me = await workspaceIdentity(ws);
        return {
          name: t.name,
          host: t.host,
          auth_method: t.authMethod,
          user_name: me.userName,
          display_name: me.displayName,
        };
      },
    }),
  ],
});
