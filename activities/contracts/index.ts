import type { WorkspaceResolver } from '../../platform/workspace-resolver';
import type { Store } from '../../store/db';
import { validationsOf } from '../../store/contracts/repo';
import { stopOnCancel, withHeartbeat } from '../clone/heartbeat';
import { postEnforcementEvent, type EnforcementEvent } from './enforce';
import { enforcementEventOf } from './events';
import { validateContract, type ContractValidateInput, type ContractValidateResult } from './run';

export type { ContractValidateInput, ContractValidateResult } from './run';
export type { EnforcementEvent } from './enforce';
export { createContractCloneHooks } from './clone-hooks';

/** Contract activities: a validation on the configured workspace, and the delivery of a failure event. */
export function createContractActivities(deps: { store: Store; workspaces: WorkspaceResolver; now?: () => Date }) {
  const now = deps.now ?? (() => new Date());
  return {
    async contractValidate(input: ContractValidateInput): Promise<ContractValidateResult> {
      return withHeartbeat(async () =>
        validateContract(deps.store, stopOnCancel(await deps.workspaces.default()), input, now()),
      );
    },
    /** The failure event of a validation's stored rows. */
    async contractFailureEvent(
      r: ContractValidateResult & { trigger: string; jobId?: string },
    ): Promise<EnforcementEvent> {
      const ids = new Set(r.results.map((x) => x.validation_id));
      const rows = (await validationsOf(deps.store.db, { name: r.name }, 1000)).filter((v) => ids.has(v.id));
      return enforcementEventOf(r.contract_id, r.version, r.trigger, r.jobId ?? null, rows);
    },
    async contractEnforce(e: { endpoint: string; event: EnforcementEvent }): Promise<{ status: number }> {
      return postEnforcementEvent(e.endpoint, e.event);
    },
  };
}

export type ContractActivities = ReturnType<typeof createContractActivities>;
