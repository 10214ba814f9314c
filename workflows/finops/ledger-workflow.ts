import { proxyActivities } from '@temporalio/workflow';
import type { FinopsActivities } from '../../activities/finops';

const { deriveUsageLedger } = proxyActivities<FinopsActivities>({
  startToCloseTimeout: '30 minutes',
  retry: { maximumAttempts: 3 },
});

/** The hourly Schedule's action: derives the usage ledger's system tables from the facts recorded so far. */
export async function usageLedgerWorkflow(): Promise<Record<string, number>> {
  return deriveUsageLedger();
}
