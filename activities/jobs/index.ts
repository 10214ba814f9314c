import type { Client } from '@temporalio/client';
import type { Store } from '../../store/db';
import { createJobEndActivities } from './record-end';
import { createWaitActivities } from './wait';

export interface JobActivityDeps {
  store: Store;
  /** Used to await clones started by an earlier run of the queue workflow. */
  client: Client;
}

/** Activities of the clone queue: job rows, audit, notifications and waiting on running clones. */
export function createJobActivities(deps: JobActivityDeps) {
  return { ...createJobEndActivities(deps.store), ...createWaitActivities(deps.client) };
}
