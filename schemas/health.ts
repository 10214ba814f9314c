import { z } from 'zod';

const ComponentSchema = z.object({
  reachable: z.boolean(),
  detail: z.string().meta({ description: 'address, driver or the reason it is unreachable' }),
});

export const HealthSchema = z
  .object({
    status: z.enum(['ok', 'degraded']),
    service: z.literal('lakeward'),
    temporal_ui_url: z.string().nullable().meta({
      description:
        "Base URL of the Temporal Web UI (config temporal.ui_url, else the embedded dev server's); a job's workflow is at <temporal_ui_url>/namespaces/<namespace>/workflows/<job_id>. Null when none is known.",
    }),
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

export const ReadinessCheckSchema = z
  .object({
    ok: z.boolean().meta({ description: 'whether it answered within the check timeout' }),
    latency_ms: z.number().min(0).meta({ description: 'how long the check took (the timeout when it did not answer)' }),
    detail: z.string().meta({ description: 'what answered, or why it did not' }),
  })
  .meta({ id: 'ReadinessCheck' });

export type ReadinessCheck = z.infer<typeof ReadinessCheckSchema>;

export const ReadinessSchema = z
  .object({
    status: z.enum(['ready', 'not_ready']),
    checks: z.object({
      temporal: ReadinessCheckSchema,
      store: ReadinessCheckSchema,
      workspace: ReadinessCheckSchema,
    }),
  })
  .meta({ id: 'Readiness' });

export type Readiness = z.infer<typeof ReadinessSchema>;
