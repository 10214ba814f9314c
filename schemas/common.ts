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

/** The most rows one list request may ask for. */
export const MAX_PAGE_LIMIT = 1000;

/**
 * Query parameters of every list endpoint (`?limit=&offset=`; strings from the URL are coerced). Routes
 * differ only in the default page size; extend it for their filters: `paginationQuery(50).extend({...})`.
 */
export function paginationQuery(defaultLimit = 100) {
  return z.object({
    limit: z.coerce.number().int().min(1).max(MAX_PAGE_LIMIT).default(defaultLimit),
    offset: z.coerce.number().int().min(0).default(0),
  });
}

export const PaginationQuerySchema = paginationQuery();
export type PaginationQuery = z.infer<typeof PaginationQuerySchema>;

/** A Unity Catalog object name part (catalog, schema, table); validated fully in platform/identifiers. */
export const ObjectNameSchema = z.string().min(1).max(255);
