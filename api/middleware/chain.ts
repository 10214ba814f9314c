import type { RequestHandler } from 'express';

/**
 * Several middleware run in order as ONE Express layer. The router pays for every layer on every request (a
 * path match, its params, a trimmed prefix and the closures around them: about as much as a bare route's whole
 * handling, for ten layers), so the app's fixed chain is one layer. Behaves as the same middleware each given to
 * `app.use`: `next()` goes on to the next one, `next(err)`, a throw or a rejected promise leaves the chain for
 * the app's error handlers, and a middleware that answers (a CORS preflight, a 401) ends it.
 */
export function chain(...handlers: RequestHandler[]): RequestHandler {
  return (req, res, next) => {
    let at = 0;
    const step = (err?: unknown): void => {
      if (err) return next(err);
      const handler = handlers[at++];
      if (!handler) return next();
      try {
        const returned: unknown = handler(req, res, step);
        if (returned instanceof Promise) returned.catch((e: unknown) => step(e ?? new Error('Rejected promise')));
      } catch (e) {
        step(e ?? new Error('Thrown undefined'));
      }
    };
    step();
  };
}
