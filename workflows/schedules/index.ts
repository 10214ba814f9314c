export { scheduledCloneWorkflow } from './scheduled-clone-workflow';
