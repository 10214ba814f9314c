import type { Request } from 'express';
import type { ModelTarget } from '../../platform/ai/chat';
import type { AppDeps } from '../deps';
import { HttpError } from '../middleware/http-error';
import { requestCredentials } from '../middleware/workspaces';

/** The serving endpoint a request names: X-Databricks-Model, or X-Platform-Model. */
export function modelHeader(req: Request): string | null {
  const name = req.get('x-databricks-model') ?? req.get('x-platform-model');
  return name?.trim() ? name.trim() : null;
}

/**
 * Where this request's model calls go, or null for template-only answers:
 * - a model header names a serving endpoint: on Databricks `<host>/serving-endpoints` (OpenAI-compatible, the
 *   request's or the configured workspace token); on the local lakehouse the `ai.local_serving_endpoints` entry
 *   of that name (400 when there is none);
 * - else `ai.external` when configured;
 * - else null.
 */
export function modelTarget(deps: AppDeps, req: Request): ModelTarget | null {
  const endpoint = modelHeader(req);
  const ai = deps.config.ai;
  if (endpoint) {
    const creds = requestCredentials(req);
    const host = creds?.host ?? (deps.config.workspace.kind === 'databricks' ? deps.config.workspace.host : null);
    const token = creds?.token ?? deps.config.workspace.token;
    if (host && token) {
      const base = (/^https?:\/\//i.test(host) ? host : `https://${host}`).replace(/\/+$/, '');
      return {
        backend: 'serving_endpoint',
        protocol: 'openai',
        baseUrl: `${base}/serving-endpoints`,
        apiKey: token,
        model: endpoint,
      };
    }
    const local = ai.local_serving_endpoints[endpoint];
    if (!local) {
      const known = Object.keys(ai.local_serving_endpoints);
      throw new HttpError(400, 'VALIDATION_ERROR', `No serving endpoint named ${endpoint}`, [
        {
          path: 'headers.x-databricks-model',
          message: known.length
            ? `unknown serving endpoint; configured: ${known.join(', ')}`
            : 'unknown serving endpoint (ai.local_serving_endpoints is empty)',
        },
      ]);
    }
    return { backend: 'serving_endpoint', protocol: 'openai', baseUrl: local, apiKey: 'local', model: endpoint };
  }
  const ext = ai.external;
  if (!ext) return null;
  const apiKey = ext.api_key ?? (ext.api_key_env ? process.env[ext.api_key_env] : undefined);
  if (!apiKey) return null;
  const baseUrl =
    ext.base_url ?? (ext.provider === 'anthropic' ? 'https://api.anthropic.com' : 'https://api.openai.com/v1');
  return { backend: 'external', protocol: ext.provider, baseUrl, apiKey, model: ext.model };
}
