/**
 * Job settings decided when the job is built (API side) and acted on when its end is recorded: they come from
 * the job type's own configuration (for clones, its clone settings) and are not request fields. Stored in the jobs row as `request.job_settings`, so the
 * recorder reads them from the row (the clone workflow never needs them).
 */
export interface JobSettings {
  /** Record a `success` notification when the job completes (notifications.on_success). */
  notify_on_success: boolean;
  /** Record a `failure` notification when the job fails, aborts or is cancelled (notifications.on_failure). */
  notify_on_failure: boolean;
  /** Sign a provenance manifest at the end and keep the envelope in summary.provenance. */
  compliance_report: boolean;
  /** What the job build changed or ignored (schemas left out, schema_only mapping, …); merged into the summary. */
  warnings: string[];
}

export const DEFAULT_JOB_SETTINGS: JobSettings = {
  notify_on_success: true,
  notify_on_failure: true,
  compliance_report: false,
  warnings: [],
};

/** The settings stored with a job; jobs created before settings existed (or without a row) get the defaults. */
export function jobSettingsOf(request: Record<string, unknown> | null | undefined): JobSettings {
  const raw = request?.job_settings;
  if (!raw || typeof raw !== 'object') return { ...DEFAULT_JOB_SETTINGS, warnings: [] };
  const s = raw as Partial<JobSettings>;
  return {
    notify_on_success: s.notify_on_success !== false,
    notify_on_failure: s.notify_on_failure !== false,
    compliance_report: s.compliance_report === true,
    warnings: Array.isArray(s.warnings) ? s.warnings.filter((w): w is string => typeof w === 'string') : [],
  };
}
