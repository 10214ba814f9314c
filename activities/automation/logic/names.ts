/** Workflow type names and ids of automation, written once (the workflows' definitions re-export them). */
export const DISPATCHER_WORKFLOW_TYPE = 'automationDispatcherWorkflow';
export const PLAYBOOK_WORKFLOW_TYPE = 'playbookExecutionWorkflow';
export const PLAYBOOK_SCHEDULED_WORKFLOW_TYPE = 'playbookScheduledWorkflow';

/** An event's execution of a playbook: starting it twice is refused (REJECT_DUPLICATE), so it acts once. */
export const executionIdOf = (playbookId: string, eventId: number | string) => `playbook-${playbookId}-${eventId}`;

/** The Temporal Schedule of a playbook with trigger_type schedule. */
export const playbookScheduleId = (playbookId: string) => `playbook-schedule-${playbookId}`;

/** The cron workflow of a playbook with trigger_type schedule: it sleeps until each firing and runs the playbook. */
export const playbookCronWorkflowId = (playbookId: string) => `playbook-cron-${playbookId}`;
export const PLAYBOOK_CRON_WORKFLOW_TYPE = 'playbookCronWorkflow';
/** One firing's execution: an id per scheduled instant, started once (REJECT_DUPLICATE). */
export const scheduledExecutionId = (playbookId: string, scheduledAt: string) =>
  `playbook-${playbookId}-schedule-${scheduledAt}`;
