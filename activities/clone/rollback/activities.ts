import { safetyLog } from '../post-clone/log';
import { ApplicationFailure } from '@temporalio/common';
import type { Workspace } from '../../../platform/port';
import type { Db } from '../../../store/db';
import { getRollbackLog, recordRollbackEntries } from '../../../store/clone/rollback-logs';
import {
  ensureRollbackLog,
  getRollbackTarget,
  setRollbackResult,
  setRollbackState,
} from '../../../store/clone/safety-rollback';
import type { CloneTarget, WorkspaceRef } from '../../../workflows/clone/definitions';
import type { RollbackResult, RollbackStepOutcome } from '../../../workflows/clone/rollback-definitions';
import { FAILURE_TYPES, isTransientFailure } from '../logic/failures';
import { restoreGovernance } from './governance';
import { dropObject, observe, tableOf, type ObjectRef } from './objects';
import { planUndo, type UndoStep } from './plan';

export interface SafetyDeps {
  db: Db;
  resolveWorkspace(ref: WorkspaceRef): Promise<Workspace>;
}

export interface RecordBeforeChangeInput {
  jobId: string;
  sourceCatalog: string;
  target: CloneTarget;
  objects: ObjectRef[];
}

/**
 * Records objects BEFORE the job touches them: whether each exists and (tables) its version, grants and tags. The first
 * observation of an object wins, so a retried step never overwrites the pre-job state with its own work.
 */
export async function recordBeforeChange(deps: SafetyDeps, input: RecordBeforeChangeInput): Promise<string> {
  const rollbackId = await ensureRollbackLog(deps.db, {
    jobId: input.jobId,
    targetLabel: input.target.label,
    workspace: input.target.workspace as unknown as Record<string, unknown>,
    sourceCatalog: input.sourceCatalog,
    destinationCatalog: input.target.destinationCatalog,
  });
  const ws = await deps.resolveWorkspace(input.target.workspace);
  const entries = [];
  for (const o of input.objects) {
    const now = await observe(ws, o);
    const action = !now.exists ? 'drop' : o.type === 'table' ? 'restore' : 'keep';
    entries.push({
      objectType: o.type,
      fqn: o.fqn,
      existed: now.exists,
      version: now.version,
      governance: now.governance ?? null,
      action,
    });
  }
  await recordRollbackEntries(deps.db, rollbackId, entries);
  return rollbackId;
}

export interface LoadedPlan {
  rollbackId: string;
  jobId: string;
  workspace: WorkspaceRef;
  steps: UndoStep[];
}

async function undoStep(ws: Workspace, step: UndoStep): Promise<RollbackStepOutcome> {
  if (step.kind === 'unrecoverable') return { ...step, outcome: 'failed', error: step.reason };
  if (step.kind === 'restore') {
    await ws.restoreTable(tableOf(step.fqn), { version: step.version });
    if (step.governance) await restoreGovernance(ws, { type: 'TABLE', ...tableOf(step.fqn) }, step.governance);
    return { kind: 'restore', objectType: 'table', fqn: step.fqn, outcome: 'restored', version: step.version };
  }
  await dropObject(ws, { type: step.objectType, fqn: step.fqn });
  return { kind: 'drop', objectType: step.objectType, fqn: step.fqn, outcome: 'dropped' };
}

export function createRollbackActivities(deps: SafetyDeps) {
  return {
    recordBeforeChange: (input: RecordBeforeChangeInput) => recordBeforeChange(deps, input),

    async loadRollbackPlan(rollbackId: string): Promise<LoadedPlan> {
      const [logRow, target] = await Promise.all([
        getRollbackLog(deps.db, rollbackId),
        getRollbackTarget(deps.db, rollbackId),
      ]);
      if (!logRow || !target)
        throw ApplicationFailure.create({
          nonRetryable: true,
          type: FAILURE_TYPES.NOT_FOUND,
          message: `rollback log ${rollbackId} not found`,
        });
      await setRollbackState(deps.db, rollbackId, 'rolling_back');
      return {
        rollbackId,
        jobId: logRow.jobId,
        workspace: target.workspace as unknown as WorkspaceRef,
        steps: planUndo(logRow.entries),
      };
    },

    /**
     * One undo step. Transient faults throw (Temporal retries the step); any other failure is reported as
     * a failed step so the remaining steps still run — a partial rollback beats none.
     */
    async undoRollbackStep(input: { workspace: WorkspaceRef; step: UndoStep }): Promise<RollbackStepOutcome> {
      const ws = await deps.resolveWorkspace(input.workspace);
      try {
        return await undoStep(ws, input.step);
      } catch (err) {
        if (isTransientFailure(err)) throw err;
        const s = input.step;
        safetyLog('warn', 'rollback step failed', { fqn: s.fqn, error: (err as Error).message });
        return {
          kind: s.kind,
          objectType: s.kind === 'restore' ? 'table' : s.objectType,
          fqn: s.fqn,
          outcome: 'failed',
          error: (err as Error).message,
        };
      }
    },

    async finishRollback(result: RollbackResult): Promise<void> {
      await setRollbackResult(deps.db, result.rollback_id, result.status, result as unknown as Record<string, unknown>);
    },
  };
}

export type RollbackActivities = ReturnType<typeof createRollbackActivities>;
