import { proxyActivities } from '@temporalio/workflow';
import type { MdmStewardActivities } from '../../activities/mdm/steward';

const { mdmNotifyOverdueCases } = proxyActivities<MdmStewardActivities>({
  startToCloseTimeout: '2 minutes',
  retry: { maximumAttempts: 5 },
});

/** Started daily by the `mdm-stewardship-overdue` Schedule: one notification per newly overdue case. */
export async function mdmStewardshipOverdueWorkflow(): Promise<{ notified: number }> {
  const { notified } = await mdmNotifyOverdueCases({ now: new Date().toISOString() });
  return { notified: notified.length };
}
