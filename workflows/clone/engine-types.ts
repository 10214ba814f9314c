import type { CloneOptions } from '../../schemas/clone';
import type { CloneSummary, CloneTarget, TableResult, WorkspaceRef } from './definitions';

/** Payloads passed between the clone workflows and their activities (kept small: they enter history). */

/** Everything an activity needs to work on one target of one job. */
export interface TargetContext {
  jobId: string;
  options: CloneOptions;
  source: WorkspaceRef;
  target: CloneTarget;
  /** Source and target are different workspaces: tables are copied by reading rows, not by CLONE. */
  crossWorkspace: boolean;
  /** IANA time zone of the job's throttle windows (from CloneJobInput.throttleTimezone); UTC when absent. */
  throttleTimezone?: string;
}

export interface TablePlanEntry {
  name: string;
  format: string | null;
  sizeBytes: number | null;
}

export interface SchemaPlan {
  /** Tables to copy, in the order to copy them. */
  tables: TablePlanEntry[];
  /** Tables left alone by load_type (already present, or unchanged since the last clone). */
  skipped: number;
  warnings: string[];
  /** Planned a page at a time (a schema bigger than one workflow run): where the next page starts, if any. */
  next?: PlanCursor | null;
  /** With pages: tables of the whole schema the job copies or skips (progress totals). */
  planned?: number;
}

/** The last table of a plan page (the next page starts after it). */
export interface PlanCursor {
  name: string;
  sizeBytes: number | null;
}

export interface TargetPlan {
  schemas: string[];
  warnings: string[];
  /** Tables of those schemas the job will copy or skip, counted before the first copy. */
  plannedTables?: number;
}

export interface ObjectCounts {
  views_cloned: number;
  views_failed: number;
  functions_cloned: number;
  functions_failed: number;
  volumes_cloned: number;
  volumes_failed: number;
  warnings: string[];
}

/** Counters a schema (or a whole target) adds to the summary. */
export type Totals = Pick<
  CloneSummary,
  | 'tables_cloned'
  | 'tables_failed'
  | 'tables_skipped'
  | 'views_cloned'
  | 'functions_cloned'
  | 'volumes_cloned'
  | 'bytes_copied'
  | 'files_copied'
  | 'formats'
  | 'warnings'
> & {
  objects_failed: number;
  /** The first few failures with their cause (`schema.table: message`), so the job's error names them. */
  errors?: string[];
};

export interface RetrySettings {
  maximumAttempts: number;
  initialIntervalMs: number;
  /**
   * Run the short per-job and per-schema steps as local activities (no task-queue round trip). Off for throttled
   * jobs: a throttled step can take many seconds, and while a local activity runs its workflow cannot take a
   * cancel, so those steps run as ordinary heartbeating activities instead.
   */
  localSteps?: boolean;
}

export interface SchemaJobInput {
  ctx: TargetContext;
  schema: string;
  retry: RetrySettings;
  /** Set by continue-as-new: where the previous run stopped. */
  resume?: { tables: TablePlanEntry[]; totals: Totals; parentWorkflowId: string; next?: PlanCursor };
}

export interface SchemaResult {
  schema: string;
  target: string;
  totals: Totals;
}

export type { TableResult };
