/** Workflow type names and ids of automation, written once (the workflows' definitions re-export them). */
export const DISPATCHER_WORKFLOW_TYPE = 'automationDispatcherWorkflow';
export const PLAYBOOK_WORKFLOW_TYPE = 'playbookExecutionWorkflow';
export const PLAYBOOK_SCHEDULED_WORKFLOW_TYPE = 'playbookScheduledWorkflow';

/** An event's execution of a playbook: starting it twice is refused (REJECT_DUPLICATE), so it acts once. */
export const executionIdOf = (playbookId: string, eventId: number | string) => `playbook-${playbookId}-${eventId}`;

/** The Temporal Schedule of a playbook with trigger_type schedule. */
export const playbookScheduleId = (playbookId: string) => `playbook-schedule-${playbookId}`;
