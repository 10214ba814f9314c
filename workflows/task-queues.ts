/**
 * Task-queue names, written once. Workers poll them and the API starts workflows on them; a deployment may
 * prefix them (config `temporal.task_queue`) so that two stacks can share one Temporal cluster.
 */
export const DEFAULT_TASK_QUEUE = 'lakeward';
