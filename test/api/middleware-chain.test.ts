import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import request from 'supertest';
import { chain } from '../../api/middleware/chain';

/** An app whose chain records the order it ran in, with the route and error handler after it. */
function appWith(...handlers: RequestHandler[]) {
  const seen: string[] = [];
  const app = express();
  app.use(
    chain(
      (req, _res, next) => {
        seen.push('first');
        next();
      },
      ...handlers,
      (req, _res, next) => {
        seen.push('last');
        next();
      },
    ),
  );
  app.get('/thing', (_req, res) => {
    seen.push('route');
    res.json({ ok: true });
  });
  const onError: ErrorRequestHandler = (err: Error, _req, res, _next) => {
    seen.push(`error: ${err.message}`);
    res.status(418).json({ error: err.message });
  };
  app.use(onError);
  return { app, seen };
}

describe('middleware chain (one router layer)', () => {
  test('runs each middleware in order, then the route, as separate app.use layers would', async () => {
    const { app, seen } = appWith((req, res, next) => {
      res.setHeader('X-Seen', 'yes');
      setImmediate(() => next()); // an asynchronous next (a body parser) goes on too
    });
    const res = await request(app).get('/thing').expect(200);
    expect(res.headers['x-seen']).toBe('yes');
    expect(seen).toEqual(['first', 'last', 'route']);
  });

  test('next(err), a throw and a rejected promise each skip the rest of the chain and the route for the error handler', async () => {
    const failures: RequestHandler[] = [
      (_req, _res, next) => next(new Error('passed on')),
      () => {
        throw new Error('thrown');
      },
      async () => {
        await Promise.resolve();
        throw new Error('rejected');
      },
    ];
    for (const [i, failing] of failures.entries()) {
      const { app, seen } = appWith(failing);
      const res = await request(app).get('/thing').expect(418);
      const message = ['passed on', 'thrown', 'rejected'][i];
      expect(res.body).toEqual({ error: message });
      expect(seen).toEqual(['first', `error: ${message}`]);
    }
  });

  test('a middleware that answers ends the chain: nothing after it runs', async () => {
    const { app, seen } = appWith((_req, res) => {
      res.status(401).json({ error: 'no key' });
    });
    await request(app).get('/thing').expect(401, { error: 'no key' });
    expect(seen).toEqual(['first']);
  });
});
