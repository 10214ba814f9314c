import { z } from 'zod';
import { IdentifierSchema } from './common';

/** POST /api/multi-clone: one source catalog to several destination catalogs of the configured workspace. */
export const MultiCloneRequestSchema = z
  .object({
    source_catalog: IdentifierSchema,
    destinations: z
      .array(z.object({ catalog: IdentifierSchema }).strict())
      .min(1)
      .max(100)
      .superRefine((list, ctx) => {
        const seen = new Set<string>();
        list.forEach((d, i) => {
          if (seen.has(d.catalog))
            ctx.addIssue({ code: 'custom', path: [i, 'catalog'], message: `${d.catalog} is listed twice` });
          seen.add(d.catalog);
        });
      }),
    clone_type: z.preprocess(
      (v) => (typeof v === 'string' ? v.toUpperCase() : v),
      z.enum(['DEEP', 'SHALLOW']).optional(),
    ),
  })
  .strict()
  .superRefine((r, ctx) => {
    r.destinations.forEach((d, i) => {
      if (d.catalog === r.source_catalog)
        ctx.addIssue({
          code: 'custom',
          path: ['destinations', i, 'catalog'],
          message: 'must differ from source_catalog',
        });
    });
  })
  .meta({ id: 'MultiCloneRequest' });

export const MultiCloneItemSchema = z
  .object({
    destination: z.string(),
    job_id: z.string().meta({ description: "this destination's clone job (GET /api/clone/{job_id})" }),
    status: z.string(),
    fanout_job_id: z.string().meta({ description: 'the fan-out job holding every destination (its run summary)' }),
  })
  .meta({ id: 'MultiCloneItem' });

export type MultiCloneRequest = z.infer<typeof MultiCloneRequestSchema>;
