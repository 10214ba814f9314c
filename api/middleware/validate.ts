import type { RequestHandler, Response } from 'express';
import type { z } from 'zod';
import type { ErrorDetail } from '../../schemas/common';
import { HttpError } from './http-error';

export interface RequestSchemas {
  body?: z.ZodType;
  query?: z.ZodType;
  params?: z.ZodType;
}

/** The parsed parts of a request, typed from the schemas given to `validate`. */
export type Parsed<S extends RequestSchemas> = {
  [K in keyof S]: S[K] extends z.ZodType ? z.output<S[K]> : never;
};

/**
 * Validates params, query and body with zod and stores the *parsed* values (defaults applied, strings
 * coerced) for the handler: read them with `parsed(res, schemas)`. Every problem is reported at once,
 * each with its path (`body.source_catalog`, `query.limit`).
 */
export function validate(schemas: RequestSchemas): RequestHandler & { requestSchemas: RequestSchemas } {
  // The schemas stay readable on the middleware, so a test can hold the OpenAPI document against the routes.
  const handler: RequestHandler = (req, res, next) => {
    const out: Record<string, unknown> = {};
    const details: ErrorDetail[] = [];
    for (const part of ['params', 'query', 'body'] as const) {
      const schema = schemas[part];
      if (!schema) continue;
      const unstorable = unstorableStrings(part === 'body' ? req.body : req[part], part);
      details.push(...unstorable);
      const result = schema.safeParse(part === 'body' ? (req.body ?? {}) : req[part]);
      if (result.success) {
        if (unstorable.length === 0) out[part] = result.data;
      } else {
        // The schema's own findings too: a field sent under an alias (`source`) is named by its field
        // (`source_catalog`) there, and a path already named as unstorable is not named twice.
        const named = new Set(unstorable.map((d) => d.path));
        details.push(...zodDetails(result.error, part).filter((d) => !named.has(d.path)));
      }
    }
    if (details.length > 0) {
      const summary = details.map((d) => `${d.path}: ${d.message}`).join('; ');
      throw new HttpError(400, 'VALIDATION_ERROR', `Invalid request: ${summary}`, details);
    }
    res.locals.parsed = out;
    next();
  };
  return Object.assign(handler, { requestSchemas: schemas });
}

/** U+0000, or a UTF-16 surrogate without its other half (JSON allows both as \u escapes). */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const unstorable = (s: string) => s.includes('\u0000') || LONE_SURROGATE.test(s);
const UNSTORABLE_MESSAGE = 'holds U+0000 (NUL) or an unpaired UTF-16 surrogate, which no text or JSON column can store';

/**
 * Strings (values and keys, at any depth) that the store could not hold: Postgres text refuses NUL and JSON
 * refuses both NUL and lone surrogates, so such a value would fail deep inside a write as a 500. Each is named
 * with its path, as zod names a field.
 */
export function unstorableStrings(value: unknown, at: string, found: ErrorDetail[] = []): ErrorDetail[] {
  if (found.length >= 10) return found;
  if (typeof value === 'string') {
    if (unstorable(value)) found.push({ path: at, message: UNSTORABLE_MESSAGE });
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => unstorableStrings(item, `${at}.${i}`, found));
  } else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (unstorable(key)) found.push({ path: `${at}.${key}`, message: `key ${UNSTORABLE_MESSAGE}` });
      unstorableStrings(item, `${at}.${key}`, found);
    }
  }
  return found;
}

export function parsed<S extends RequestSchemas>(res: Response, _schemas: S): Parsed<S> {
  if (!res.locals.parsed) throw new Error('parsed() called on a route without validate()');
  return res.locals.parsed as Parsed<S>;
}

/** zod issues as error details, paths prefixed with where they were found. */
export function zodDetails(error: z.ZodError, prefix?: string): ErrorDetail[] {
  return error.issues.flatMap((issue) => {
    const at = [prefix, ...issue.path.map(String)].filter(Boolean).join('.');
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((k) => ({ path: at ? `${at}.${k}` : k, message: 'unknown field' }));
    }
    if (issue.code === 'invalid_key' && issue.issues.length > 0) {
      return [{ path: at || '(root)', message: `invalid key: ${issue.issues.map((i) => i.message).join('; ')}` }];
    }
    return [{ path: at || '(root)', message: issue.message }];
  });
}
