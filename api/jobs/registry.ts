import type { z } from 'zod';
import type { Config } from '../../config/load';
import type { JobProgress } from '../../schemas/jobs';
import type { Db } from '../../store/db';
import type { JobRow } from '../../store/jobs/jobs';
import type { QueueLimits } from '../../workflows/jobs/definitions';

/**
 * A job type, as the kernel needs to know it. Adding one is: its workflow (exported from workflows/index.ts),
 * its input schema (schemas/<domain>.ts), and one of these in `builtInJobTypes` (api/jobs/job-types.ts).
 * Everything else — queue and limits, status, run log, progress, WebSocket, cancel, timeout, notification,
 * audit row, GET /api/jobs — comes from the kernel.
 */
export interface JobTypeDefinition<I = unknown> {
  /** Lower-case name: the jobs row's job_type, the job id prefix, the queue name (`queue-<type>`). */
  type: string;
  /** The workflow the queue starts with the job id as workflow id and the input as only argument. */
  workflowType: string;
  /** Validates the workflow input before it is queued (nothing that fails it reaches Temporal). */
  inputSchema: z.ZodType<I>;
  /** Queue limits of this type (from config; clone: clone.max_concurrent, max_queue_size, request_timeout_minutes). */
  limits(config: Config): QueueLimits;
  /** Fields this type adds to its list items and records, read from the row. */
  describe?(row: JobRow): Record<string, unknown>;
  /** Progress from this type's own records; default: the `progress` the job reported (reportJobProgress). */
  progress?(db: Db, row: JobRow): Promise<JobProgress>;
  /** The progress of a page of this type's jobs in a few reads (lists); default: `progress` for each row. */
  progressMany?(db: Db, rows: JobRow[]): Promise<JobProgress[]>;
}

export type JobTypeRegistry = ReadonlyMap<string, JobTypeDefinition>;

export function jobTypeRegistry(types: JobTypeDefinition[]): JobTypeRegistry {
  const map = new Map<string, JobTypeDefinition>();
  for (const t of types) {
    if (map.has(t.type)) throw new Error(`job type ${t.type} is registered twice`);
    map.set(t.type, t);
  }
  return map;
}
