import { GenerateInputSchema, type GenerateInput } from '../../schemas/generators';
import type { JobTypeDefinition } from '../jobs/registry';

/** Generator runs: several at once (each writes its own kind's folder and table); fixed limits. */
export const GENERATE_LIMITS = { maxConcurrent: 2, maxQueueSize: 20, requestTimeoutMinutes: 240 };

export const generateJobType: JobTypeDefinition<GenerateInput> = {
  type: 'generate',
  workflowType: 'generateDemoWorkflow',
  inputSchema: GenerateInputSchema,
  limits: () => GENERATE_LIMITS,
  describe: (row) => {
    const r = (row.request ?? {}) as { kind?: string; destination?: string };
    return { kind: r.kind ?? null, destination: r.destination ?? null };
  },
};
