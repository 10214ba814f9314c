import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { Router, type RequestHandler } from 'express';
import multer from 'multer';
import {
  CaptureFrameFieldsSchema,
  CaptureFrameFormSchema,
  CaptureFrameResponseSchema,
  CaptureInitRequestSchema,
  CaptureInitResponseSchema,
  CaptureRecentQuerySchema,
  CaptureRecentResponseSchema,
} from '../../schemas/capture';
import type { RouteModule } from '../deps';
import { assertAllowed } from '../governance/access';
import { callerOf, requireRole } from '../middleware/auth';
import { HttpError } from '../middleware/http-error';
import { defineRoutes, openApiPath, requiredRole, route, routeResponses } from '../middleware/route';
import { captureFrame, initCapture, MAX_FRAME_BYTES, recentCaptures } from './service';

const MOUNT = '/api';

const frameRoute = route({
  method: 'post',
  path: '/capture/frame',
  summary: 'Store one photo or video frame: the file in the volume, then its row (bytes bound) with six AI fields',
  request: { body: CaptureFrameFieldsSchema },
  response: { status: 201, description: 'The stored capture', schema: CaptureFrameResponseSchema },
  errors: {
    403: 'An access policy refuses writing this catalog',
    404: 'No such catalog, schema, volume or table (run /api/capture/init)',
    413: 'The file is larger than 25 MB',
    415: 'The bytes are not of the capture_type’s kind (photo: image, video: video)',
  },
  handler: async ({ deps, req, input }) => {
    const caller = callerOf(req);
    const b = input.body;
    await assertAllowed(
      deps,
      caller,
      { operation: 'write', destination: b.catalog, schemas: [b.schema] },
      'body.catalog',
    );
    return captureFrame(deps, req, caller, b, req.file);
  },
});

const base = defineRoutes({
  name: 'capture',
  routes: [
    route({
      method: 'post',
      path: '/capture/init',
      summary: 'Create the capture volume and table when missing; an older table gains only its missing columns',
      request: { body: CaptureInitRequestSchema },
      response: { description: 'What exists now and what this call changed', schema: CaptureInitResponseSchema },
      errors: { 403: 'An access policy refuses writing this catalog', 404: 'No such catalog or schema' },
      handler: async ({ deps, req, input }) => {
        const b = input.body;
        await assertAllowed(deps, callerOf(req), { operation: 'write', destination: b.catalog, schemas: [b.schema] });
        return initCapture(await deps.workspaces.resolve(req), b);
      },
    }),
    route({
      method: 'get',
      path: '/capture/recent',
      summary: 'Recent captures, newest first, optionally of one session (never the inline bytes)',
      request: { query: CaptureRecentQuerySchema },
      response: { description: 'The captures', schema: CaptureRecentResponseSchema },
      errors: { 403: 'An access policy refuses reading this catalog' },
      handler: async ({ deps, req, input }) => {
        const q = input.query;
        await assertAllowed(
          deps,
          callerOf(req),
          { operation: 'read', source: q.catalog, schemas: [q.schema] },
          'query.catalog',
        );
        return recentCaptures(await deps.workspaces.resolve(req), q);
      },
    }),
  ],
});

const frame = defineRoutes({ name: 'capture', routes: [frameRoute] });

/** multer's memory storage for the `file` part; too large → 413, another part or a broken form → 400. */
function upload(): RequestHandler {
  const parse = multer({ storage: multer.memoryStorage(), limits: { fileSize: MAX_FRAME_BYTES, files: 1 } }).single(
    'file',
  );
  return (req, res, next) =>
    parse(req, res, (err?: unknown) => {
      if (!err) return next();
      if (err instanceof multer.MulterError) {
        const status = err.code === 'LIMIT_FILE_SIZE' ? 413 : 400;
        const code = status === 413 ? 'PAYLOAD_TOO_LARGE' : 'VALIDATION_ERROR';
        const message =
          status === 413 ? 'file is larger than 25 MB' : `${err.message}${err.field ? ` (${err.field})` : ''}`;
        return next(new HttpError(status, code, message, [{ path: `body.${err.field ?? 'file'}`, message }]));
      }
      next(err);
    });
}

/** The capture routes; the frame route reads a multipart form (multer) before its fields are validated. */
export const captureRoutes: RouteModule = {
  name: 'capture',
  router(deps) {
    const router = Router();
    router.post('/capture/frame', requireRole(requiredRole(frameRoute)), upload());
    router.use(base.router(deps));
    router.use(frame.router(deps));
    return router;
  },
  openapi(registry: OpenAPIRegistry) {
    base.openapi!(registry);
    // The frame route takes multipart/form-data, not JSON: registered again with its form.
    const responses = routeResponses(frameRoute);
    // routeResponses describes 413 as the JSON limit; here it is the file's 25 MB.
    Object.assign(responses[413]!, { description: 'The file is larger than 25 MB' });
    registry.registerPath({
      method: 'post',
      path: openApiPath(`${MOUNT}/capture/frame`),
      tags: ['capture'],
      summary: frameRoute.summary,
      request: { body: { content: { 'multipart/form-data': { schema: CaptureFrameFormSchema } } } },
      'x-required-role': requiredRole(frameRoute),
      responses,
    });
  },
};
