import { proxyActivities } from '@temporalio/workflow';
import type { JobActivities } from '../../activities/jobs';
import type { MdmReportActivities } from '../../activities/mdm/reports';
import type { MdmReportInput, ReportResult } from '../../schemas/mdm-reports';

const { mdmRunReport } = proxyActivities<MdmReportActivities>({
  startToCloseTimeout: '30 minutes',
  retry: { maximumAttempts: 2 },
});
const { reportJobProgress } = proxyActivities<JobActivities>({
  startToCloseTimeout: '1 minute',
  retry: { maximumAttempts: 5 },
});

/** An MDM report run (job type `mdm_report`): one activity computes the rows; the job summary keeps them. */
export async function mdmReportWorkflow(input: MdmReportInput): Promise<{ status: 'completed' } & ReportResult> {
  await reportJobProgress(input.jobId, { completed: 0, total: 1 });
  const result = await mdmRunReport(input);
  await reportJobProgress(input.jobId, { completed: 1, total: 1, rows: result.rows.length });
  return { status: 'completed', ...result };
}
