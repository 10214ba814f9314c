import { condition, sleep } from '@temporalio/workflow';
import type { PoolClock } from '../../activities/safety/throttle/pool';

/** The throttle pool's clock inside a workflow: the SDK's deterministic Date, timers and conditions. */
export const workflowClock: PoolClock = {
  now: () => Date.now(),
  sleep: (ms) => sleep(ms),
  waitUntil: (predicate) => condition(predicate),
};
