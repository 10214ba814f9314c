/**
 * The tag that ties a statement to the Lakeward job that sent it. The Databricks adapter puts it, as a block
 * comment on its own first line, before every statement a job runs on a SQL warehouse, so the workspace's
 * `system.query.history.statement_text` names the job; the job-costs view allocates warehouse cost to jobs by the
 * duration of the statements carrying it. The local lakehouse writes the same tag into its own query history.
 *
 *   /* lakeward job_id=clone-20261124-101500-3fa2 job_type=clone *\/
 */

/** What a job id or job type may contain to be tagged: nothing that could end the comment or break the pattern. */
const TAG_VALUE = /^[A-Za-z0-9_.:-]{1,200}$/;

/** The regular expressions the view's SQL extracts the tag with (no backslashes: the same text in both dialects). */
export const JOB_ID_PATTERN = 'lakeward job_id=([A-Za-z0-9_.:-]+)';
export const JOB_TYPE_PATTERN = 'lakeward job_id=[A-Za-z0-9_.:-]+ job_type=([A-Za-z0-9_.:-]+)';

export interface TaggedJob {
  job_id: string;
  job_type?: string;
}

/** The comment for a job, or null when its id cannot be tagged safely. */
export function jobTag(job: TaggedJob): string | null {
  if (!TAG_VALUE.test(job.job_id)) return null;
  const type = job.job_type && TAG_VALUE.test(job.job_type) ? ` job_type=${job.job_type}` : '';
  return `/* lakeward job_id=${job.job_id}${type} */`;
}

/** `sql` with the job's tag on a line before it (unchanged without a job, or when already tagged). */
export function tagStatement(sql: string, job: TaggedJob | undefined): string {
  if (!job || sql.startsWith('/* lakeward job_id=')) return sql;
  const tag = jobTag(job);
  return tag ? `${tag}\n${sql}` : sql;
}

/** The job a statement's text names, as the view's SQL reads it (for tests and tools). */
export function jobOfStatement(text: string): TaggedJob | null {
  const id = new RegExp(JOB_ID_PATTERN).exec(text);
  if (!id) return null;
  const type = new RegExp(JOB_TYPE_PATTERN).exec(text);
  return type ? { job_id: id[1], job_type: type[1] } : { job_id: id[1] };
}
