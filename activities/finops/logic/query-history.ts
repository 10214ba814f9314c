import { jobTag } from '../../../platform/sql/job-tag';
import { recordId } from './ledger';

/** A span a job held a local warehouse (the usage fact the ledger records per activity attempt). */
export interface SpanFact {
  spanKey: string;
  jobId: string;
  jobType: string;
  warehouseId: string;
  start: number;
  end: number;
  busyMs: number;
  runAs: string | null;
}

/**
 * The local lakehouse's `system.query.history` rows: one per span, with Databricks' column names, its text
 * tagged exactly as the Databricks adapter tags a job's statements, so the job-costs view reads both alike.
 * statement_id derives from the span, so deriving again gives the same rows.
 */
export function queryHistoryRows(
  spans: SpanFact[],
  base: { account_id: string; workspace_id: string },
): Record<string, unknown>[] {
  return spans.map((s) => {
    const tag = jobTag({ job_id: s.jobId, job_type: s.jobType });
    return {
      ...base,
      statement_id: recordId(['statement', s.spanKey, s.warehouseId]),
      session_id: null,
      execution_status: 'FINISHED',
      compute: { type: 'WAREHOUSE', cluster_id: null, warehouse_id: s.warehouseId },
      executed_by: s.runAs,
      statement_text: `${tag ? `${tag}\n` : ''}-- ${s.jobType} work on warehouse ${s.warehouseId} (${s.spanKey})`,
      statement_type: 'OTHER',
      client_application: 'lakeward',
      total_duration_ms: s.end - s.start,
      execution_duration_ms: s.busyMs,
      start_time: new Date(s.start).toISOString(),
      end_time: new Date(s.end).toISOString(),
    };
  });
}
