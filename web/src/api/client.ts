import createFetchClient, { type Middleware } from 'openapi-fetch';
import createQueryClient from 'openapi-react-query';
import type { paths } from './schema';
import { apiKeyStore } from '../state/api-key';

/** What `lakeward web` serves at /config.json, so one build runs against any API. */
export interface ConsoleConfig {
  api_url: string;
  temporal_ui_url: string;
  namespace: string;
}

/** The one place that talks HTTP: /config.json here, every API call through the typed client below. */
export async function loadConsoleConfig(): Promise<ConsoleConfig> {
  const res = await fetch('/config.json', { headers: { Accept: 'application/json' } });
  if (!res.ok) throw new Error(`/config.json answered ${res.status}`);
  const body = (await res.json()) as Partial<ConsoleConfig>;
  return {
    api_url: (body.api_url ?? '').replace(/\/$/, ''),
    temporal_ui_url: (body.temporal_ui_url ?? '').replace(/\/$/, ''),
    namespace: body.namespace ?? 'default',
  };
}

/**
 * The API key rides every call as Bearer; a 401 asks for one (once; a wrong key shows the server's message), unless
 * the call went out with a key that has been replaced since.
 */
const auth: Middleware = {
  onRequest({ request }) {
    const key = apiKeyStore.get();
    if (key) request.headers.set('Authorization', `Bearer ${key}`);
    return request;
  },
  async onResponse({ request, response }) {
    // A 401 to a request sent with an older key (several calls were in flight when a new key was saved) asks for
    // nothing: the new key's own calls decide.
    const key = apiKeyStore.get();
    const sentWith = request.headers.get('Authorization');
    if (response.status === 401 && key && sentWith !== `Bearer ${key}`) return response;
    if (response.status === 401) {
      let message = 'The API needs a key.';
      try {
        const body = (await response.clone().json()) as { error?: { message?: string } };
        message = body.error?.message ?? message;
      } catch {
        /* a 401 without a JSON body keeps the generic message */
      }
      apiKeyStore.requestKey(message);
    }
    return response;
  },
};

export function createApi(baseUrl: string) {
  const client = createFetchClient<paths>({ baseUrl });
  client.use(auth);
  return { client, $api: createQueryClient(client) };
}

export type Api = ReturnType<typeof createApi>;

/** The job WebSocket's URL, with ?api_key= since browsers cannot set headers on a WebSocket. */
export function jobSocketUrl(apiUrl: string, jobId: string): string {
  const base = new URL(apiUrl || window.location.origin, window.location.origin);
  base.protocol = base.protocol === 'https:' ? 'wss:' : 'ws:';
  base.pathname = `/api/jobs/ws/${encodeURIComponent(jobId)}`;
  const key = apiKeyStore.get();
  if (key) base.searchParams.set('api_key', key);
  return base.toString();
}
