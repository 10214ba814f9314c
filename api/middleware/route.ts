import type { OpenAPIRegistry, RouteConfig } from '@asteasolutions/zod-to-openapi';
import { Router, type Request, type Response } from 'express';
import type { z } from 'zod';
import { ErrorBodySchema } from '../../schemas/common';
import type { AppDeps, RouteModule } from '../deps';
import { parsed, validate, type Parsed, type RequestSchemas } from './validate';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** What a handler gets: the parsed request parts, the module's state (see `defineRoutes`), and Express's req/res. */
export interface RouteContext<S extends RequestSchemas, C> {
  input: Parsed<S>;
  deps: AppDeps;
  state: C;
  req: Request;
  res: Response;
}

export interface RouteDef<S extends RequestSchemas = RequestSchemas, R extends z.ZodType = z.ZodType, C = unknown> {
  method: HttpMethod;
  /** Express style, relative to the module's mounts: `/clone/:jobId`. Written once; OpenAPI gets `{jobId}`. */
  path: string;
  summary: string;
  /** Defaults to the module's tags. */
  tags?: string[];
  request?: S;
  /** The success response: its status (default 200) and body schema. */
  response: { status?: number; description: string; schema: R };
  /** Other responses documented with their own body schema (a 202 beside the 200, say). */
  otherResponses?: Record<number, { description: string; schema?: z.ZodType }>;
  /** Error statuses this route answers on purpose (404, 409, 429 …), each with the common error body. */
  errors?: Record<number, string>;
  /** OpenAPI `security`; `[]` marks a route open without the API key. */
  security?: RouteConfig['security'];
  /**
   * Returns the body, sent as JSON with `response.status` unless the handler set another status itself
   * (`res.status(202)`) or already answered (a stream): then nothing more is sent.
   */
  handler(ctx: RouteContext<S, C>): z.input<R> | undefined | Promise<z.input<R> | undefined>;
}

/** Typed identity: infers the request and response schemas so the handler's input and body are checked. */
export function route<S extends RequestSchemas, R extends z.ZodType, C = unknown>(
  def: RouteDef<S, R, C>,
): RouteDef<S, R, C> {
  return def;
}

/** `/clone/:jobId/logs` → `/clone/{jobId}/logs` (OpenAPI path templating). */
export function openApiPath(expressPath: string): string {
  return expressPath.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}');
}

function joinPath(mount: string, path: string): string {
  const joined = `${mount.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
  return joined.length > 1 ? joined.replace(/\/+$/, '') : joined;
}

function register(registry: OpenAPIRegistry, def: RouteDef, mount: string, tags: string[]): void {
  const json = (description: string, schema?: z.ZodType) =>
    schema ? { description, content: { 'application/json': { schema } } } : { description };
  const responses: RouteConfig['responses'] = {
    [def.response.status ?? 200]: json(def.response.description, def.response.schema),
  };
  for (const [status, r] of Object.entries(def.otherResponses ?? {})) responses[status] = json(r.description, r.schema);
  const req = def.request ?? {};
  if (req.body || req.query || req.params)
    responses[400] = json('A field is invalid; details name it', ErrorBodySchema);
  for (const [status, description] of Object.entries(def.errors ?? {})) {
    responses[status] = json(description, ErrorBodySchema);
  }
  const request: RouteConfig['request'] = {};
  if (req.params) request.params = req.params as never;
  if (req.query) request.query = req.query as never;
  if (req.body) request.body = { content: { 'application/json': { schema: req.body } } };
  registry.registerPath({
    method: def.method,
    path: openApiPath(joinPath(mount, def.path)),
    tags: def.tags ?? tags,
    summary: def.summary,
    ...(Object.keys(request).length ? { request } : {}),
    ...(def.security ? { security: def.security } : {}),
    responses,
  });
}

/**
 * A route module from route definitions: each route's Express handler (validating `{params, query, body}`
 * with its schemas) and its OpenAPI entry come from the same definition, for every mount. `state` builds
 * per-app values once (a cache, a signing key) that handlers read as `ctx.state`.
 */
export function defineRoutes<C = undefined>(opts: {
  name: string;
  tags?: string[];
  mounts?: string[];
  state?: (deps: AppDeps) => C;
  // Route defs differ in their schema types; `route()` checked each one already.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  routes: RouteDef<any, any, C>[];
}): RouteModule {
  const tags = opts.tags ?? [opts.name];
  const mounts = opts.mounts ?? ['/api'];
  return {
    name: opts.name,
    ...(opts.mounts ? { mounts: opts.mounts } : {}),
    router(deps) {
      const router = Router();
      const state = opts.state ? opts.state(deps) : (undefined as C);
      for (const def of opts.routes) {
        const schemas = def.request ?? {};
        router[def.method](def.path, validate(schemas), async (req, res) => {
          const body = await def.handler({ input: parsed(res, schemas), deps, state, req, res });
          if (res.headersSent || res.writableEnded) return;
          if (res.statusCode === 200 && def.response.status) res.status(def.response.status);
          res.json(body);
        });
      }
      return router;
    },
    openapi(registry) {
      for (const mount of mounts) for (const def of opts.routes) register(registry, def, mount, tags);
    },
  };
}
