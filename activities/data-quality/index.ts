import type { ProfileResult } from './profile';
import { profileSource } from './profile';
import { runSegmented, type DqSegmentedRequest } from './segmented-run';
import { runTableChecks, type DqTableOutcome, type DqTableRequest } from './run-table';
import type { DqProfileInput } from '../../schemas/data-quality-profiles';
import type { SegmentedResult } from '../../schemas/data-quality';
import type { WorkspaceResolver } from '../../platform/workspace-resolver';
import type { Store } from '../../store/db';
import { stopOnCancel, withHeartbeat } from '../clone/heartbeat';

export type { DqTableOutcome, DqTableRequest } from './run-table';
export type { DqSegmentedRequest } from './segmented-run';
export type { ProfileResult } from './profile';

/**
 * Data-quality activities: a table's check run, a segmented run and a profile, each on the configured
 * workspace, heartbeating while its queries run and stopping at the next query once cancelled.
 */
export function createDataQualityActivities(deps: { store: Store; workspaces: WorkspaceResolver }) {
  const workspace = async () => stopOnCancel(await deps.workspaces.default());
  return {
    async dqRunTable(req: DqTableRequest): Promise<DqTableOutcome> {
      return withHeartbeat(async () => runTableChecks(await workspace(), deps.store, req));
    },
    async dqSegmentedRun(req: DqSegmentedRequest): Promise<SegmentedResult> {
      return withHeartbeat(async () => runSegmented(await workspace(), deps.store, req));
    },
    async dqProfile(input: DqProfileInput): Promise<ProfileResult> {
      return withHeartbeat(async () => profileSource(await workspace(), deps.store, input));
    },
  };
}

export type DataQualityActivities = ReturnType<typeof createDataQualityActivities>;
