import type { WorkerOptions } from '@temporalio/worker';

/** Worker options every Lakeward worker runs with (production, tests and benchmarks alike). */
export const WORKER_TUNING = {
  // A running activity learns that it was cancelled only from the reply to a heartbeat, and by default the
  // SDK sends heartbeats at most every 0.8 × heartbeatTimeout (8 s for the clone activities): a batch of
  // small tables would go on cloning tables for that long after a cancel. One second keeps cancel prompt
  // for one small request a second per running activity.
  maxHeartbeatThrottleInterval: '1 second',
} satisfies Partial<WorkerOptions>;
