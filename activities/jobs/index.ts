import type { Client } from '@temporalio/client';
import type { Store } from '../../store/db';
import type { KeyOptions } from '../clone/provenance/keys';
import { lazySigningKey } from './provenance';
import { createJobEndActivities } from './record-end';
import { createWaitActivities } from './wait';

export interface JobActivityDeps {
  store: Store;
  /** Used to await clones started by an earlier run of the queue workflow. */
  client: Client;
  /** Where the provenance signing key lives (as for the API); compliance reports are signed with it. */
  provenanceKey?: KeyOptions;
}

/** Activities of the clone queue: job rows, audit, notifications and waiting on running clones. */
export function createJobActivities(deps: JobActivityDeps) {
  const key = deps.provenanceKey ? lazySigningKey(deps.provenanceKey) : undefined;
  return { ...createJobEndActivities(deps.store, key), ...createWaitActivities(deps.client) };
}
