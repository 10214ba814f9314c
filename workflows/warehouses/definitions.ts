import { defineSignal } from '@temporalio/workflow';
import { WAREHOUSE_COMMAND_SIGNAL, WAREHOUSE_USED_SIGNAL } from '../../schemas/warehouses';

export { warehouseWorkflowId } from '../../schemas/warehouses';

/** What a warehouse's workflow is asked to do, one at a time, in arrival order. */
export type WarehouseCommand = 'start' | 'stop' | 'delete' | 'edit';

export const warehouseCommandSignal = defineSignal<[WarehouseCommand]>(WAREHOUSE_COMMAND_SIGNAL);
/** A job or query used the warehouse: the auto-stop timer counts idle time from now. */
export const warehouseUsedSignal = defineSignal(WAREHOUSE_USED_SIGNAL);

export interface WarehouseWorkflowInput {
  warehouseId: string;
}

/** What a transition left: the warehouse's state and the auto-stop minutes it now has (0: never). */
export interface TransitionResult {
  state: string;
  autoStopMins: number;
}
