import { MdmReportInputSchema, type MdmReportInput } from '../../schemas/mdm-reports';
import type { JobTypeDefinition } from '../jobs/registry';

/** Report runs are jobs of type `mdm_report` (queue, status, cancel, notification and audit from the kernel). */
export const MDM_REPORT_LIMITS = { maxConcurrent: 2, maxQueueSize: 50, requestTimeoutMinutes: 60 };

export const mdmReportJobType: JobTypeDefinition<MdmReportInput> = {
  type: 'mdm_report',
  workflowType: 'mdmReportWorkflow',
  inputSchema: MdmReportInputSchema,
  limits: () => MDM_REPORT_LIMITS,
  describe: (row) => ({ scope: (row.request as { report?: string } | null)?.report ?? null }),
};
