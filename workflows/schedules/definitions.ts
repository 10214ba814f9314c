/** Names shared by the API (which creates the Schedules) and the scheduled run workflow. */

/** Workflow type a clone Schedule's action starts. */
export const SCHEDULED_CLONE_WORKFLOW_TYPE = 'scheduledCloneWorkflow';

/** The scheduled run's only argument (no secrets: it is written to history). */
export interface ScheduledCloneInput {
  scheduleId: string;
}

/** Temporal Schedule id of a schedule: `clone-schedule-<name>` (POST /api/schedule), `clone-job-<name>` (jobs). */
export function scheduleIdOf(kind: 'schedule' | 'job', name: string): string {
  return `${kind === 'job' ? 'clone-job' : 'clone-schedule'}-${name}`;
}
