import type { CloneJobInput } from '../clone/definitions';

/** Job type of a fan-out clone (target_workspaces, POST /api/multi-clone): one child clone job per target. */
export const FANOUT_JOB_TYPE = 'clone_fanout';
export const FANOUT_WORKFLOW_TYPE = 'cloneFanoutWorkflow';

/** A saved target's data sync mode: how a target that already holds the catalog is brought up to date. */
export type DataSyncMode = 'snapshot_once' | 'incremental' | 'force_full';

export interface FanoutChild {
  /** The child clone job's id (its jobs row exists from submission; also its workflow id). */
  jobId: string;
  /** Index into `clone.targets`. */
  target: number;
  /** null: the request's load_type. */
  syncMode: DataSyncMode | null;
}

/** The fan-out job's input: the clone as built for all targets, and one child per target. Never secrets. */
export interface FanoutJobInput {
  jobId: string;
  clone: CloneJobInput;
  children: FanoutChild[];
  /** Config clone.fanout_max_parallel: children running at once. */
  maxParallel: number;
}
