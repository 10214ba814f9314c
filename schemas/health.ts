import { z } from 'zod';

const ComponentSchema = z.object({
  reachable: z.boolean(),
  detail: z.string().meta({ description: 'address, driver or the reason it is unreachable' }),
});

export const HealthSchema = z
  .object({
    status: z.enum(['ok', 'degraded']),
    service: z.literal('lakeward'),
    runtime: z.object({
      version: z.string(),
      node: z.string(),
      temporal_sdk: z.string(),
      uptime_seconds: z.number(),
      workspace: z.enum(['local', 'databricks']),
      temporal: ComponentSchema.extend({ namespace: z.string(), task_queue: z.string() }),
      store: ComponentSchema.extend({ driver: z.enum(['postgres', 'pglite']) }),
    }),
  })
  .meta({ id: 'Health' });

export type Health = z.infer<typeof HealthSchema>;
