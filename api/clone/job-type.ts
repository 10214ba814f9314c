import { z } from 'zod';
import type { JobProgress } from '../../schemas/jobs';
import { cloneProgressCounts, cloneProgressCountsOf, type CloneProgressCounts } from '../../store/clone/clone-state';
import type { JobRow } from '../../store/jobs/jobs';
import type { CloneJobInput } from '../../workflows/clone/definitions';
import type { JobTypeDefinition } from '../jobs/registry';

/** The clone job input as the queue carries it (built and fully validated by build-input.ts). */
const cloneJobInputSchema = z.custom<CloneJobInput>(
  (v) =>
    typeof v === 'object' &&
    v !== null &&
    typeof (v as CloneJobInput).jobId === 'string' &&
    Array.isArray((v as CloneJobInput).targets) &&
    (v as CloneJobInput).targets.length > 0,
  'a clone job input with a job id and at least one target',
);

/** Planned totals written by each target's preparation (`planned:<target>` keys of the row's progress). */
function plannedTotals(row: JobRow): { schemas: number; tables: number } | null {
  const entries = Object.entries(row.progress ?? {}).filter(([k]) => k.startsWith('planned:'));
  if (entries.length === 0) return null;
  return entries.reduce(
    (sum, [, v]) => {
      const p = v as { schemas?: number; tables?: number };
      return { schemas: sum.schemas + (p.schemas ?? 0), tables: sum.tables + (p.tables ?? 0) };
    },
    { schemas: 0, tables: 0 },
  );
}

/** A clone's progress: planned totals against recorded table results; ETA from the rate so far. */
export function cloneProgress(row: JobRow, c: CloneProgressCounts): JobProgress {
  const planned = plannedTotals(row);
  const done = c.cloned + c.failed + c.skipped;
  const total = Math.max(planned?.tables ?? 0, done);
  const schemasTotal = Math.max(planned?.schemas ?? 0, c.schemasDone);
  const elapsedS = row.startedAt ? ((row.completedAt ?? new Date()).getTime() - row.startedAt.getTime()) / 1000 : 0;
  const running = row.status === 'running';
  const eta = running && done > 0 && total > done ? Math.round((elapsedS * (total - done)) / done) : running ? null : 0;
  return {
    completed: done,
    total,
    schemas: `${c.schemasDone}/${schemasTotal}`,
    tables: `${done}/${total}`,
    tables_failed: c.failed,
    tables_skipped: c.skipped,
    bytes_copied: c.bytes,
    eta_seconds: eta,
  };
}

export const cloneJobType: JobTypeDefinition<CloneJobInput> = {
  type: 'clone',
  workflowType: 'cloneCatalogWorkflow',
  inputSchema: cloneJobInputSchema,
  limits: (config) => ({
    maxConcurrent: config.clone.max_concurrent,
    maxQueueSize: config.clone.max_queue_size,
    requestTimeoutMinutes: config.clone.request_timeout_minutes,
  }),
  describe: (row) => ({
    source_catalog: row.sourceCatalog,
    destination_catalog: row.destinationCatalog,
    clone_type: row.cloneType,
  }),
  progress: async (db, row) => cloneProgress(row, await cloneProgressCounts(db, row.jobId)),
  progressMany: async (db, rows) => {
    const counts = await cloneProgressCountsOf(
      db,
      rows.map((r) => r.jobId),
    );
    return rows.map((row) => cloneProgress(row, counts.get(row.jobId)!));
  },
};
