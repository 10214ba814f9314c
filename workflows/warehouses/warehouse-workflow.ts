import { condition, continueAsNew, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type { WarehouseActivities } from '../../activities/warehouses';
import {
  warehouseCommandSignal,
  warehouseUsedSignal,
  type WarehouseCommand,
  type WarehouseWorkflowInput,
} from './definitions';

const { warehouseTransition, warehouseIdle } = proxyActivities<WarehouseActivities>({
  // Starting a Databricks warehouse can take minutes; the activity polls and heartbeats.
  startToCloseTimeout: '30 minutes',
  heartbeatTimeout: '2 minutes',
  retry: { maximumAttempts: 5, initialInterval: '1 second' },
});

/** How often a warehouse found busy when its auto-stop came due is looked at again. */
const BUSY_RECHECK_MS = 60_000;

/**
 * One workflow per warehouse (id `warehouse-<id>`): serialises its transitions (start, stop, edit, delete) and
 * holds auto-stop as a durable timer that every use signal pushes back. When the timer fires the workflow asks
 * the engine whether a query is running; a busy warehouse is never stopped.
 */
export async function warehouseWorkflow(input: WarehouseWorkflowInput, pending: WarehouseCommand[] = []) {
  // The SDK makes Date deterministic inside workflows: this is the workflow task's time.
  const now = () => new Date().getTime();
  const queue: WarehouseCommand[] = [...pending];
  let lastUse = now();
  let state = '';
  let autoStopMins = 0;
  setHandler(warehouseCommandSignal, (cmd) => void queue.push(cmd));
  setHandler(warehouseUsedSignal, () => void (lastUse = now()));

  if (!queue.length) ({ state, autoStopMins } = await warehouseTransition(input.warehouseId, 'edit'));
  for (;;) {
    if (!queue.length && state === 'RUNNING' && autoStopMins > 0) {
      const dueIn = lastUse + autoStopMins * 60_000 - now();
      if (dueIn > 0) {
        await condition(() => queue.length > 0, dueIn);
        continue; // a command arrived, or time passed (lastUse may have moved meanwhile)
      }
      const idle = await warehouseIdle(input.warehouseId);
      if (idle.busy) lastUse = now() - autoStopMins * 60_000 + BUSY_RECHECK_MS;
      else if (idle.lastUsedAtMs && idle.lastUsedAtMs > lastUse) lastUse = idle.lastUsedAtMs;
      else queue.push('stop');
      continue;
    }
    if (!queue.length) await condition(() => queue.length > 0);
    const cmd = queue.shift()!;
    ({ state, autoStopMins } = await warehouseTransition(input.warehouseId, cmd));
    if (cmd === 'start') lastUse = now();
    if (state === 'DELETED') return { state };
    if (workflowInfo().continueAsNewSuggested && !queue.length) await continueAsNew<typeof warehouseWorkflow>(input);
  }
}
