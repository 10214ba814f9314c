import { z } from 'zod';

/** One problem with a request: where (dotted path such as `body.source_catalog`) and what. */
export const ErrorDetailSchema = z.object({ path: z.string(), message: z.string() }).meta({ id: 'ErrorDetail' });

/** The one error body every endpoint returns. */
export const ErrorBodySchema = z
  .object({
    error: z.object({
      code: z.string().meta({ example: 'VALIDATION_ERROR' }),
      message: z.string(),
      details: z.array(ErrorDetailSchema),
    }),
    request_id: z.string(),
  })
  .meta({ id: 'ErrorBody' });

export type ErrorDetail = z.infer<typeof ErrorDetailSchema>;
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

/** Query parameters for list endpoints; strings from the URL are coerced. */
export const PaginationQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  offset: z.coerce.number().int().min(0).default(0),
});

/** A Unity Catalog object name part (catalog, schema, table); validated fully in platform/identifiers. */
export const ObjectNameSchema = z.string().min(1).max(255);
