import { maskPiiColumns } from '../masking/apply';
import { postCloneChecks } from './post-clone';
import { createQuiesceActivities } from '../quiesce/activities';
import { createRollbackActivities, type SafetyDeps } from '../rollback/activities';
import type { TargetContext } from '../../../workflows/clone/engine-types';

export type { SafetyDeps } from '../rollback/activities';
export { createSafetyHooks } from './hooks';

/** Activities of the safety features: rollback, quiesce, post-clone checks and PII masking. */
export function createSafetyActivities(deps: SafetyDeps) {
  return {
    ...createRollbackActivities(deps),
    ...createQuiesceActivities(deps),
    postCloneChecks: (ctx: TargetContext) => postCloneChecks(deps, ctx),
    maskPiiColumns: (ctx: TargetContext) => maskPiiColumns(deps, ctx),
  };
}

export type SafetyActivities = ReturnType<typeof createSafetyActivities>;
