import { maskPiiColumns } from '../masking/apply';
import { postCloneChecks } from './post-clone';
import { createQuiesceActivities } from '../quiesce/activities';
import { createRollbackActivities } from '../rollback/activities';
import type { TargetContext } from '../../../workflows/clone/engine-types';

export type { SafetyDeps } from '../rollback/activities';
export { createSafetyHooks } from './hooks';
import { throttled, type SafetyHookDeps } from './hooks';

/** Activities of the safety features: rollback, quiesce, post-clone checks and PII masking. */
export function createSafetyActivities(deps: SafetyHookDeps) {
  return {
    ...createRollbackActivities(deps),
    ...createQuiesceActivities(deps),
    // Validation reads both sides of every cloned table: platform calls of the job, behind its max_rps limiter.
    postCloneChecks: (ctx: TargetContext) => postCloneChecks(throttled(deps, ctx), ctx),
    maskPiiColumns: (ctx: TargetContext) => maskPiiColumns(deps, ctx),
  };
}

export type SafetyActivities = ReturnType<typeof createSafetyActivities>;
