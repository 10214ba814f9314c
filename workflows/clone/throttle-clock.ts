import { condition, sleep } from '@temporalio/workflow';
import type { PoolClock } from './throttle-pool';

/** The throttle pool's clock inside a workflow: the SDK's deterministic Date, timers and conditions. */
export const workflowClock: PoolClock = {
  // The sandbox's Date is the deterministic workflow clock (time of the current workflow task).
  now: () => new Date().getTime(),
  sleep: (ms) => sleep(ms),
  waitUntil: (predicate) => condition(predicate),
};
