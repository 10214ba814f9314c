import { context, SpanKind, SpanStatusCode, trace, type Context } from '@opentelemetry/api';
import type { Request, RequestHandler, Response } from 'express';
import {
  annotateJob,
  currentLogContext,
  resumeLogContext,
  runWithLogContext,
} from '../../platform/observability/log-context';

/** What the request's first middleware started, for the second one to step back into after body parsing. */
interface RequestContext {
  otel: Context;
  log: object;
}
const CONTEXT = Symbol('lakeward.request-context');
type Carrier = Response & { [CONTEXT]?: RequestContext };

/**
 * One server span per request (`GET /api/clone/:jobId`: method and route template, never the raw path or the
 * query), and one log context per request, so a job route's span and log lines carry the job's fields. Put it
 * first; put `resumeRequestContext()` after the body parser, whose stream callbacks run outside the request's
 * async context. With tracing off the span is a no-op and only the log context remains.
 */
export function requestTracing(): RequestHandler {
  const tracer = trace.getTracer('lakeward.api');
  return (req, res, next) => {
    const span = tracer.startSpan(`${req.method} request`, {
      kind: SpanKind.SERVER,
      attributes: { 'http.request.method': req.method },
    });
    const otel = trace.setSpan(context.active(), span);
    res.once('finish', () => {
      const route = routeTemplate(req);
      span.updateName(`${req.method} ${route}`);
      span.setAttributes({ 'http.route': route, 'http.response.status_code': res.statusCode });
      const jobId = route === 'unmatched' ? undefined : pathParam(route, req.originalUrl, 'jobId');
      if (jobId) context.with(otel, () => annotateJob(jobId, jobTypeOfId(jobId)));
      if (res.statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
      span.end();
    });
    runWithLogContext({}, () => {
      (res as Carrier)[CONTEXT] = { otel, log: currentLogContext()! };
      context.with(otel, () => next());
    });
  };
}

/** Re-enters the request's span and log context (after express.json, whose callbacks lose it). */
export function resumeRequestContext(): RequestHandler {
  return (_req, res, next) => {
    const saved = (res as Carrier)[CONTEXT];
    if (!saved) return next();
    // A request without a body (every GET) passes the parser synchronously, still inside its contexts.
    const enter = () => (context.active() === saved.otel ? next() : context.with(saved.otel, next));
    if (currentLogContext() === saved.log) return enter();
    resumeLogContext(saved.log, enter);
  };
}

/** The route template that answered (`/api/clone/:jobId`), or `unmatched` (404s name no route). */
export function routeTemplate(req: Request): string {
  const path = (req.route as { path?: unknown } | undefined)?.path;
  if (typeof path !== 'string') return 'unmatched';
  return `${req.baseUrl ?? ''}${path}`;
}

/** Job ids are `<type>-YYYYMMDD-HHMMSS-xxxx` (api/jobs/job-id.ts): the type is their first part. */
export function jobTypeOfId(jobId: string): string | undefined {
  return /^([a-z][a-z0-9_]*)-\d{8}-\d{6}-[0-9a-f]{4}$/.exec(jobId)?.[1];
}

/** A named parameter's value, by aligning the template's segments with the last segments of the request path. */
export function pathParam(template: string, url: string, name: string): string | undefined {
  const tpl = template.split('/').filter(Boolean);
  const path = url.split('?')[0].split('/').filter(Boolean);
  const at = tpl.indexOf(`:${name}`);
  if (at < 0 || path.length < tpl.length) return undefined;
  const value = path[path.length - tpl.length + at];
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
}
