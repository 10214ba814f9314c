import type { OpenAPIRegistry, RouteConfig } from '@asteasolutions/zod-to-openapi';
import { Router, type Request, type Response } from 'express';
import type { z } from 'zod';
import { ErrorBodySchema } from '../../schemas/common';
import type { Role } from '../../schemas/governance';
import type { AppDeps, RouteModule } from '../deps';
import { requireRole } from './auth';
import { parsed, validate, type Parsed, type RequestSchemas } from './validate';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

export type { Role };

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
  /**
   * The success response: its status (default 200), body schema and media types (default JSON; a stream
   * lists its own, with the schema of one event).
   */
  response: { status?: number; description: string; schema: R; mediaTypes?: string[] };
  /** Other responses documented with their own body schema (a 202 beside the 200, say). */
  otherResponses?: Record<number, { description: string; schema: z.ZodType }>;
  /**
   * Error statuses this route answers on purpose (404, 409, 422, 429, 503 …), each with the common error body.
   * 400, 401 and 413 are added from the request schemas and `security` (see `routeResponses`).
   */
  errors?: Record<number, string>;
  /**
   * The least role a caller needs. Default by method: GET → viewer, DELETE → admin, anything else → editor.
   * Declare it where the default is wrong (a steward action, an admin-only apply, a read-only POST).
   */
  role?: Role;
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

/** Answers handed to many requests at once (`serialiseOnce`), each with its JSON text once the first one sent it. */
const serialisedOnce = new WeakMap<object, string | null>();

/**
 * Marks an answer that several requests share (a read shared while in flight, api/jobs/shared-reads.ts): it is
 * serialised for the first of them and the same text is sent to the others, instead of each request turning the
 * same objects into JSON again (the bulk of a large list's cost). The answer must not change once returned.
 */
export function serialiseOnce<T extends object>(answer: T): T {
  if (!serialisedOnce.has(answer)) serialisedOnce.set(answer, null);
  return answer;
}

const JSON_SETTINGS = ['json replacer', 'json spaces', 'json escape'];

/** `res.json(body)`, with the JSON text of a `serialiseOnce` answer made once (with the app's default settings). */
function sendJson(res: Response, body: unknown): void {
  const shared = typeof body === 'object' && body !== null && serialisedOnce.has(body);
  if (!shared || JSON_SETTINGS.some((setting) => res.app.get(setting))) {
    res.json(body);
    return;
  }
  let text = serialisedOnce.get(body);
  if (text == null) serialisedOnce.set(body, (text = JSON.stringify(body)));
  if (!res.get('Content-Type')) res.set('Content-Type', 'application/json');
  res.send(text);
}

/** Methods whose requests carry a JSON body the app parses (so a bad or oversized body is possible). */
const BODY_METHODS = new Set<HttpMethod>(['post', 'put', 'patch']);

/**
 * Every response a route can give, each with a schema: its success response(s); 400 when it reads params,
 * query or a body (the JSON parser answers 400 INVALID_JSON on any body); 401 when it is secured (an API key
 * is configured); 413 when it takes a body (larger than `api_server.json_limit`); and the errors it declares.
 */
export function routeResponses(def: RouteDef): RouteConfig['responses'] {
  const json = (description: string, schema: z.ZodType, mediaTypes = ['application/json']) => ({
    description,
    content: Object.fromEntries(mediaTypes.map((type) => [type, { schema }])),
  });
  const error = (description: string) => json(description, ErrorBodySchema);
  const { status = 200, description, schema, mediaTypes } = def.response;
  const responses: RouteConfig['responses'] = { [status]: json(description, schema, mediaTypes) };
  for (const [status, r] of Object.entries(def.otherResponses ?? {})) responses[status] = json(r.description, r.schema);
  const req = def.request ?? {};
  const takesBody = Boolean(req.body) || BODY_METHODS.has(def.method);
  if (req.body || req.query || req.params || takesBody)
    responses[400] = error('A field is invalid (details name it) or the body is not valid JSON');
  const open = isOpenRoute(def);
  if (!open) {
    responses[401] = error('The API key is missing or wrong (only when the server is started with keys)');
    responses[403] = error(`The caller's key has a role below ${requiredRole(def)}, the least this route needs`);
  }
  if (takesBody) responses[413] = error('The JSON body is larger than the server limit (api_server.json_limit)');
  for (const [status, description] of Object.entries(def.errors ?? {})) responses[status] = error(description);
  return responses;
}

/** A route open without a key (`security: []`): health, the API document. */
export function isOpenRoute(def: Pick<RouteDef, 'security'>): boolean {
  return Array.isArray(def.security) && def.security.length === 0;
}

/** The least role a route needs: its own `role`, else by method (GET → viewer, DELETE → admin, else editor). */
export function requiredRole(def: Pick<RouteDef, 'role' | 'method'>): Role {
  if (def.role) return def.role;
  if (def.method === 'get') return 'viewer';
  if (def.method === 'delete') return 'admin';
  return 'editor';
}

function register(registry: OpenAPIRegistry, def: RouteDef, mount: string, tags: string[]): void {
  const responses = routeResponses(def);
  const req = def.request ?? {};
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
    ...(isOpenRoute(def) ? {} : { 'x-required-role': requiredRole(def) }),
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
        const guard = isOpenRoute(def) ? [] : [requireRole(requiredRole(def))];
        router[def.method](def.path, ...guard, validate(schemas), async (req, res) => {
          const body = await def.handler({ input: parsed(res, schemas), deps, state, req, res });
          if (res.headersSent || res.writableEnded) return;
          if (res.statusCode === 200 && def.response.status) res.status(def.response.status);
          sendJson(res, body);
        });
      }
      return router;
    },
    openapi(registry) {
      for (const mount of mounts) for (const def of opts.routes) register(registry, def, mount, tags);
    },
  };
}
