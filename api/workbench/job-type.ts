import { NotebookRunInputSchema, type NotebookRunInput } from '../../schemas/workbench';
import type { JobTypeDefinition } from '../jobs/registry';

/** Notebook run-all: reads only, so several run at once; fixed limits (the configuration has no section). */
export const NOTEBOOK_RUN_LIMITS = { maxConcurrent: 4, maxQueueSize: 50, requestTimeoutMinutes: 240 };

export const notebookRunJobType: JobTypeDefinition<NotebookRunInput> = {
  type: 'notebook_run',
  workflowType: 'notebookRunWorkflow',
  inputSchema: NotebookRunInputSchema,
  limits: () => NOTEBOOK_RUN_LIMITS,
  describe: (row) => ({ notebook_id: (row.request as { notebook_id?: string } | null)?.notebook_id ?? null }),
};
