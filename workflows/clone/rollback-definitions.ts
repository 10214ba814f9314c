import { defineQuery } from '@temporalio/workflow';

/** Names and payloads of the rollback workflow, shared by the API, the clone workflow and activities. */
export const rollbackWorkflowId = (rollbackId: string): string => `rollback-${rollbackId}`;

export interface RollbackInput {
  rollbackId: string;
  /** Why: `manual` (POST /api/rollback) or the auto-rollback reason. */
  reason?: string;
}

export interface RollbackStepOutcome {
  kind: 'restore' | 'drop' | 'unrecoverable';
  objectType: string;
  fqn: string;
  outcome: 'restored' | 'dropped' | 'failed';
  version?: number;
  error?: string;
}

export interface RollbackResult {
  rollback_id: string;
  job_id: string;
  status: 'rolled_back' | 'rollback_failed';
  reason: string;
  restored: number;
  dropped: number;
  failed: number;
  steps: RollbackStepOutcome[];
}

export interface RollbackProgress {
  done: number;
  total: number;
  failed: number;
}

export const rollbackProgressQuery = defineQuery<RollbackProgress>('rollbackProgress');
