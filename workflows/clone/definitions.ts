import { defineQuery, defineSignal } from '@temporalio/workflow';
import type { CloneOptions } from '../../schemas/clone';
import type { HistoryLimits } from './signals';

/**
 * Names and payload types shared by the clone workflows, their activities, the job API and the CLI.
 * Secrets never enter workflow inputs (they would be written to Temporal history): a Databricks workspace is
 * referenced by a saved target name or a credential reference that activities resolve from the store.
 */

export type WorkspaceRef =
  /** `warehouseId`: the local warehouse (engine pool) the job's SQL runs on; absent → the shared default engine. */
  | { kind: 'local'; root: string; warehouseId?: string }
  | { kind: 'databricks'; host: string; warehouseId: string; target?: string; credentialRef?: string };

export interface CloneTarget {
  /** Human label used in summaries: the target name, host or root. */
  label: string;
  workspace: WorkspaceRef;
  destinationCatalog: string;
}

export interface CloneJobInput {
  jobId: string;
  /** Fully resolved options: template, config and request merged, defaults applied. */
  options: CloneOptions;
  source: WorkspaceRef;
  /** One entry for a same-workspace or cross-workspace clone, several for fan-out. */
  targets: CloneTarget[];
  /** ISO 8601; when the job was accepted (request_timeout_minutes counts from here). */
  createdAt: string;
  /** Config max_retries (default 3), used when options.enable_retry is true. */
  maxRetries: number;
  /** First retry delay (default 1000 ms; doubles each attempt). Tests shorten it. */
  retryInitialIntervalMs?: number;
  /** IANA time zone that throttle schedule windows are read in (config clone.throttle_timezone); UTC when absent. */
  throttleTimezone?: string;
  /**
   * History limits and batch settings this job runs with (workflows/clone/signals.ts: the replay rule), so a
   * deploy that changes the defaults never changes the steps of a running job. Absent in inputs recorded
   * before the field existed; those run with RECORDED_HISTORY_LIMITS.
   */
  limits?: HistoryLimits;
}

export type CloneJobStatus = 'queued' | 'running' | 'completed' | 'failed' | 'cancelled' | 'aborted';

export interface TableResult {
  schema: string;
  table: string;
  status: 'cloned' | 'failed' | 'skipped';
  format: string | null;
  bytesCopied: number;
  filesCopied: number;
  sourceVersion: number | null;
  durationMs: number;
  error?: string;
  reason?: string;
  target?: string;
  /** Attempts the table activity took (1 when it succeeded or failed at once). */
  attempts?: number;
  warnings?: string[];
}

export interface CloneSummary {
  jobId: string;
  status: CloneJobStatus;
  mode: 'full' | 'incremental' | 'selective' | 'fanout' | 'dry_run';
  tables_cloned: number;
  tables_failed: number;
  tables_skipped: number;
  views_cloned: number;
  functions_cloned: number;
  volumes_cloned: number;
  bytes_copied: number;
  files_copied: number;
  formats: Record<string, number>;
  duration_seconds: number;
  /** Set when the job aborted (max_duration_min, max_tables, request timeout) or failed. */
  error?: string;
  /** Dry runs: the exact ordered plan of statements/operations. */
  plan?: string[];
  warnings: string[];
  per_target?: Record<string, Omit<CloneSummary, 'per_target' | 'jobId'>>;
  target_count?: number;
  succeeded_targets?: number;
  failed_targets?: number;
  target_status?: 'success' | 'partial' | 'failed';
  /** Extension point for safety features (validation, dq comparison, rollback, masking). */
  [extra: string]: unknown;
}

/** Live progress of a job, answered by the top-level clone workflow. */
export interface CloneProgress {
  status: CloneJobStatus;
  phase: string;
  schemas: { completed: number; total: number };
  tables: { completed: number; failed: number; skipped: number; total: number };
  bytesCopied: number;
  startedAt: string | null;
}

export const cloneProgressQuery = defineQuery<CloneProgress>('cloneProgress');
/** Ends quiesce early (re-grants source write privileges now). */
export const releaseQuiesceSignal = defineSignal('releaseQuiesce');

/**
 * Events a job emits (persisted as run_logs rows with data.event set, streamed by the WebSocket and
 * `GET /api/clone/{id}/logs`): status, table_started, table_finished, schema_finished, retry, completed, error.
 */
export type CloneEventType =
  'status' | 'table_started' | 'table_finished' | 'schema_finished' | 'retry' | 'warning' | 'completed' | 'error';
