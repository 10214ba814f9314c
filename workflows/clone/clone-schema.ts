import { continueAsNew, getExternalWorkflowHandle, workflowInfo } from '@temporalio/workflow';
import type { SchemaJobInput, SchemaResult } from './engine-types';
import { runSchema } from './schema-run';
import { limitsOf, schemaProgressSignal, type HistoryLimits } from './signals';

export interface SchemaWorkflowInput extends SchemaJobInput {
  limits?: HistoryLimits;
  /** Tables in the schema's plan (planned + skipped), carried across continue-as-new for progress. */
  planned?: number;
}

/**
 * One schema of one target as a workflow of its own (workflows/clone/schema-run.ts has the steps), started by
 * the job workflow for every schema of a job with several, or for the tables beyond the first run of a job
 * with one. After `tablesPerRun` tables it continues as new with the rest.
 */
export async function cloneSchemaWorkflow(input: SchemaWorkflowInput): Promise<SchemaResult> {
  const limits = limitsOf(input.limits);
  const parentId = input.resume?.parentWorkflowId ?? workflowInfo().parent?.workflowId ?? null;
  // Progress signals are sent without waiting for their delivery (a round trip through the server each):
  // tables keep going meanwhile, and every signal is awaited before this run ends, so a failed one still
  // fails the schema.
  const reports: Promise<void>[] = [];
  return runSchema(input, limits, {
    report(counts) {
      if (!parentId) return;
      const sent = getExternalWorkflowHandle(parentId).signal(schemaProgressSignal, {
        childId: workflowInfo().workflowId,
        ...counts,
      });
      sent.catch(() => undefined);
      reports.push(sent);
    },
    async settle() {
      await Promise.all(reports);
    },
    async handOff(rest, totals, planned, next) {
      return continueAsNew<typeof cloneSchemaWorkflow>({
        ...input,
        limits,
        planned,
        resume: { tables: rest, totals, parentWorkflowId: parentId ?? '', ...(next ? { next } : {}) },
      });
    },
  });
}
