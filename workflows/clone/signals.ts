import { defineSignal } from '@temporalio/workflow';

/** Running counts a schema workflow reports to the job workflow, so cloneProgressQuery moves per table. */
export interface SchemaProgress {
  /** The schema workflow's id: counts replace (not add to) the previous report of the same child. */
  childId: string;
  planned: number;
  completed: number;
  failed: number;
  skipped: number;
  bytes: number;
}

export const schemaProgressSignal = defineSignal<[SchemaProgress]>('cloneSchemaProgress');

/** Limits that keep each workflow run's history bounded (see the history test and bench). */
export interface HistoryLimits {
  /** Table activities per schema-workflow run before continue-as-new. */
  tablesPerRun: number;
  /** Schema workflows per job-workflow run before continue-as-new. */
  schemasPerRun: number;
  /** A schema workflow reports progress after this many tables. */
  progressEvery: number;
}

export const DEFAULT_HISTORY_LIMITS: HistoryLimits = { tablesPerRun: 1000, schemasPerRun: 300, progressEvery: 25 };
