import { condition, continueAsNew, proxyActivities, setHandler } from '@temporalio/workflow';
import type { AutomationActivities } from '../../activities/automation';
import { eventsCommittedSignal, type DispatcherInput } from './definitions';

const { dispatchEvents } = proxyActivities<AutomationActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds' },
});

/** How often the dispatcher looks for events when no signal wakes it. */
const POLL = '5 seconds';

/**
 * The singleton event dispatcher: a pass over new events whenever a commit signals it, at least every 5 s, and
 * continue-as-new after `pollsPerRun` passes so its history stays small. Passes are idempotent (executions are
 * started under REJECT_DUPLICATE with ids from the playbook and the event), so a replay acts on nothing twice.
 */
export async function automationDispatcherWorkflow(input: DispatcherInput): Promise<void> {
  let woken = false;
  setHandler(eventsCommittedSignal, () => {
    woken = true;
  });
  const passes = input.pollsPerRun ?? 500;
  for (let i = 0; i < passes; i++) {
    woken = false;
    let found = await dispatchEvents({ dispatcherId: input.dispatcherId, taskQueue: input.taskQueue });
    // A full page means more are waiting: go on without sleeping.
    while (found.events >= 200)
      found = await dispatchEvents({ dispatcherId: input.dispatcherId, taskQueue: input.taskQueue });
    await condition(() => woken, POLL);
  }
  await continueAsNew<typeof automationDispatcherWorkflow>(input);
}
