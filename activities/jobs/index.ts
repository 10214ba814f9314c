import type { Client } from '@temporalio/client';
import type { Store } from '../../store/db';
import type { KeyOptions } from '../clone/provenance/keys';
import { createProgressActivities } from './progress';
import { lazySigningKey } from './provenance';
import { createJobEndActivities } from './record-end';
import { createWaitActivities } from './wait';

export interface JobActivityDeps {
  store: Store;
  /** Used to await, and as a last resort terminate, jobs started by the queue workflows. */
  client: Client;
  /** Where the provenance signing key lives (as for the API); compliance reports are signed with it. */
  provenanceKey?: KeyOptions;
  /** Runs after each job's end is recorded (the usage ledger's derivation). */
  afterJobEnd?: (jobId: string) => Promise<unknown>;
}

/** Activities of the job kernel: job rows, run logs, progress, audit, notifications, waiting on running jobs. */
export function createJobActivities(deps: JobActivityDeps) {
  const key = deps.provenanceKey ? lazySigningKey(deps.provenanceKey) : undefined;
  return {
    ...createJobEndActivities(deps.store, key, deps.afterJobEnd),
    ...createWaitActivities(deps.client, deps.store),
    ...createProgressActivities(deps.store),
  };
}

export type JobActivities = ReturnType<typeof createJobActivities>;
