/**
 * What playbook actions need from the rest of the service, wired by the worker from the API's own services
 * (api/automation/worker-services.ts): jobs go through the job kernel exactly as their routes submit them.
 */
export interface AutomationServices {
  /** start_clone, start_sync, run_dq, run_pipeline: validates `params` as the route's body and queues the job. */
  startJob(
    action: 'start_clone' | 'start_sync' | 'run_dq' | 'run_pipeline',
    params: Record<string, unknown>,
  ): Promise<{
    job_id: string;
    job_type: string;
  }>;
  pauseSchedule(scheduleId: string, note: string): Promise<{ schedule_id: string; paused: boolean }>;
  resumeSchedule(scheduleId: string, note: string): Promise<{ schedule_id: string; paused: boolean }>;
  /** Asks the kernel to cancel a job (a pipeline step's child job); an already ended job is left alone. */
  cancelJob(jobId: string): Promise<void>;
  /** POST /api/validate: row counts (and checksums) of a catalog and its clone, as the route answers. */
  validateCatalogs(body: Record<string, unknown>): Promise<Record<string, unknown> & { passed: boolean }>;
  /** POST /api/convert-to-delta (access policies checked as the route does): the batch, with `failed` counted. */
  convertTables(body: Record<string, unknown>): Promise<Record<string, unknown> & { failed: number }>;
  /** Opens a master-data stewardship case (idempotent by type and records); answers its id. */
  openCase(params: Record<string, unknown>): Promise<Record<string, unknown>>;
}
