import type { CloneActivityDeps } from './deps';
import { createSchemaActivities } from './schema-activities';
import { createTableActivities } from './table-batch';
import { createTargetActivities } from './target-activities';

export type { CloneActivityDeps, CloneHooks } from './deps';

/** Every activity the clone workflows call, built over the worker's store and workspaces. */
export function createCloneActivities(deps: CloneActivityDeps) {
  return { ...createTargetActivities(deps), ...createSchemaActivities(deps), ...createTableActivities(deps) };
}

export type CloneActivities = ReturnType<typeof createCloneActivities>;
