/**
 * The Databricks Jobs API settings of a persistent scheduled clone job (`--target databricks-jobs`): one
 * notebook task that runs the clone with the stored request, the Quartz schedule as given (Databricks reads
 * Quartz natively), e-mail notifications, retries and timeout. Pure: the API sends it with jobs/create or
 * jobs/reset.
 */
export const DEFAULT_CLONE_NOTEBOOK = '/Shared/lakeward/clone_catalog';

export interface DatabricksJobInput {
  name: string;
  quartz: string | null;
  timezone: string;
  emails: string[];
  maxRetries: number;
  timeoutSeconds: number;
  tags: Record<string, string>;
  notebookPath: string;
  warehouseId: string | null;
  /** The clone request the notebook runs (no credentials: schedules refuse them). */
  request: Record<string, unknown>;
}

export function databricksJobSettings(j: DatabricksJobInput): Record<string, unknown> {
  const request = j.request;
  return {
    name: `lakeward-clone-${j.name}`,
    tags: { ...j.tags, lakeward: 'scheduled-clone' },
    ...(j.quartz
      ? { schedule: { quartz_cron_expression: j.quartz, timezone_id: j.timezone, pause_status: 'UNPAUSED' } }
      : {}),
    email_notifications: { on_success: j.emails, on_failure: j.emails, no_alert_for_skipped_runs: false },
    timeout_seconds: j.timeoutSeconds,
    max_concurrent_runs: 1,
    tasks: [
      {
        task_key: 'clone_catalog',
        notebook_task: {
          notebook_path: j.notebookPath,
          source: 'WORKSPACE',
          base_parameters: {
            source_catalog: String(request.source_catalog),
            destination_catalog: String(request.destination_catalog),
            clone_type: String(request.clone_type ?? 'DEEP'),
            clone_request: JSON.stringify(request),
          },
          ...(j.warehouseId ? { warehouse_id: j.warehouseId } : {}),
        },
        max_retries: j.maxRetries,
        timeout_seconds: j.timeoutSeconds,
      },
    ],
  };
}
