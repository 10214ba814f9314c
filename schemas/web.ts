import { z } from 'zod';
import { RoleSchema } from './governance';

/** `GET /api/auth/me`: who the API takes the caller for (the web console shows the role and disables actions above it). */
export const CallerSchema = z
  .object({
    name: z.string().describe('The key name, `session:<user>` for a signed-in session, or `anonymous`'),
    role: RoleSchema.describe('The caller role: viewer < editor < steward < admin'),
    authentication: z
      .enum(['off', 'on'])
      .describe('off: the server has no keys and every caller is anonymous with the admin role'),
  })
  .meta({ id: 'Caller' });
export type CallerInfo = z.infer<typeof CallerSchema>;

/** One operation of the API as the console's manifest names it, with the least role it needs. */
export const WebOperationSchema = z.object({
  operation: z.string().describe('"<method> <OpenAPI path>", e.g. "get /api/jobs/{jobId}"'),
  role: RoleSchema.nullable().describe('The least role the operation needs; null when it is open without a key'),
});

/** `GET /api/web/operations`: every operation of the OpenAPI document, without the schemas (a few KB, not MB). */
export const WebOperationsSchema = z
  .object({
    version: z.string().describe('The API version (the OpenAPI document info.version)'),
    operations: z.array(WebOperationSchema),
  })
  .meta({ id: 'WebOperations' });
export type WebOperations = z.infer<typeof WebOperationsSchema>;
