export { dqRunWorkflow } from './run-workflow';
export { dqProfileWorkflow, dqSegmentedRunWorkflow } from './direct-workflows';
export { dqOperationWorkflow } from './ops-workflows';
export { dqScheduledRunWorkflow } from './schedule-workflow';
