import { desc, eq } from 'drizzle-orm';
import type { Step, StepState } from '../../schemas/pipeline';
import type { Db } from '../db';
import { pipelineRuns, pipelines } from './tables';

export type PipelineRow = typeof pipelines.$inferSelect;
export type PipelineRunRow = typeof pipelineRuns.$inferSelect;

export async function insertPipeline(db: Db, row: typeof pipelines.$inferInsert): Promise<PipelineRow> {
  const [r] = await db.insert(pipelines).values(row).returning();
  return r;
}

export async function getPipeline(db: Db, id: string): Promise<PipelineRow | undefined> {
  const [r] = await db.select().from(pipelines).where(eq(pipelines.pipelineId, id));
  return r;
}

export async function listPipelines(db: Db): Promise<PipelineRow[]> {
  return db.select().from(pipelines).orderBy(desc(pipelines.createdAt), desc(pipelines.pipelineId));
}

export async function deletePipeline(db: Db, id: string): Promise<boolean> {
  const rows = await db.delete(pipelines).where(eq(pipelines.pipelineId, id)).returning();
  return rows.length > 0;
}

/** The pending state of every step of a definition. */
export function pendingSteps(steps: Step[]): StepState[] {
  return steps.map((s) => ({
    name: s.name,
    type: s.type,
    status: 'pending',
    attempts: 0,
    child_job_id: null,
    output: null,
    error: null,
    started_at: null,
    completed_at: null,
  }));
}

export async function insertRun(db: Db, row: typeof pipelineRuns.$inferInsert): Promise<void> {
  await db.insert(pipelineRuns).values(row).onConflictDoNothing();
}

export async function deleteRun(db: Db, runId: string): Promise<void> {
  await db.delete(pipelineRuns).where(eq(pipelineRuns.runId, runId));
}

export async function getRun(db: Db, runId: string): Promise<PipelineRunRow | undefined> {
  const [r] = await db.select().from(pipelineRuns).where(eq(pipelineRuns.runId, runId));
  return r;
}

export async function listRuns(db: Db, q: { pipelineId?: string; limit: number }): Promise<PipelineRunRow[]> {
  return db
    .select()
    .from(pipelineRuns)
    .where(q.pipelineId ? eq(pipelineRuns.pipelineId, q.pipelineId) : undefined)
    .orderBy(desc(pipelineRuns.createdAt), desc(pipelineRuns.runId))
    .limit(q.limit);
}

/** Merges `patch` into the state of step `index` (the run's workflow is the only writer, one step at a time). */
export async function patchStep(db: Db, runId: string, index: number, patch: Partial<StepState>): Promise<void> {
  await db.transaction(async (tx) => {
    const [r] = await tx.select().from(pipelineRuns).where(eq(pipelineRuns.runId, runId)).for('update');
    if (!r || !r.steps[index]) return;
    const steps = r.steps.map((s, i) => (i === index ? { ...s, ...patch } : s));
    await tx.update(pipelineRuns).set({ steps }).where(eq(pipelineRuns.runId, runId));
  });
}
