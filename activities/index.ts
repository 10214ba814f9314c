import type { Client } from '@temporalio/client';
import type { Config } from '../config/load';
import type { WorkspaceResolver } from '../platform/workspace-resolver';
import type { Store } from '../store/db';
import { configTargetCipher } from '../store/targets/cipher';
import { createCloneActivities } from './clone';
import { classifyActivities } from './clone/failures';
import { cloneWorkspaceResolver } from './clone/resolve-workspace';
import { createAutomationActivities, type AutomationServices } from './automation';
import { createPipelineActivities } from './pipeline';
import { createContractActivities, createContractCloneHooks } from './contracts';
import { createDataQualityActivities, createDqCloneHooks } from './data-quality';
import { createHelloActivities } from './hello';
import { createScheduleActivities, type SubmitScheduledClone } from './schedules';
import { createJobActivities } from './jobs';
import { createMdmActivities } from './mdm';
import { createMdmStewardActivities } from './mdm/steward';
import { createMdmReportActivities } from './mdm/reports';
import { createMdmScheduleActivities, type MdmServices } from './mdm/scheduled';
import { createStorageActivities } from './storage';
import { createStreamActivities } from './streams';
import { createSyncActivities } from './sync';
import { createSafetyActivities, createSafetyHooks } from './clone/post-clone';
import { createWorkbenchActivities } from './workbench';
import { createGeneratorActivities } from './generators';
import { createWarehouseActivities } from './warehouses';
import { createWarehouseGate } from './warehouses/gate';
import { createFinopsActivities, recordWarehouseSpans } from './finops';
import { createBudgetActivities } from './finops/budgets';
import { createRecommendationActivities } from './finops/recommendations';

/** What activities may use. The worker builds it once from the real store, Temporal client and workspaces. */
export interface ActivityDeps {
  config: Config;
  store: Store;
  /** Temporal client on the worker's connection (to signal or await other workflows). */
  client: Client;
  workspaces: WorkspaceResolver;
  /** Submits a clone job through the API's clone service (scheduled clones); wired by workers/stack.ts. */
  submitClone?: SubmitScheduledClone;
  /** What playbook actions use of the API's services (jobs, schedules); wired by workers/stack.ts. */
  automation?: AutomationServices;
  /** What a model's Schedule submits (ingest, match jobs) through the API's MDM services; wired by workers/stack.ts. */
  mdm?: MdmServices;
}

/**
 * Every activity the worker registers. Each domain contributes its factory here with one spread line;
 * tests call the domain factories directly with their own deps. Wrapped once: whatever an activity throws
 * reaches Temporal classified by activities/clone/logic/failures (one failure vocabulary for every domain).
 */
export function createActivities(deps: ActivityDeps) {
  const warehousePool = createWarehouseGate({
    db: deps.store.db,
    client: deps.client,
    taskQueue: deps.config.temporal.task_queue,
  });
  const resolveWorkspace = cloneWorkspaceResolver(
    deps.workspaces,
    deps.store.db,
    configTargetCipher(deps.config),
    warehousePool,
  );
  // max_rps is per job across workers: a bucket in the store, or in memory when only this process has it.
  const rateLimitScope = deps.store.driver === 'pglite' ? 'process' : 'store';
  const safety = { db: deps.store.db, resolveWorkspace };
  const finops = createFinopsActivities({ config: deps.config, store: deps.store, workspaces: deps.workspaces });
  return recordWarehouseSpans(
    deps.store.db,
    classifyActivities({
      ...createHelloActivities({ prefix: 'Hello' }),
      ...createJobActivities({
        store: deps.store,
        client: deps.client,
        provenanceKey: { dataDir: deps.config.data_dir, privateKeyPem: deps.config.provenance.private_key },
        afterJobEnd: () => finops.deriveUsageLedger(),
      }),
      ...createCloneActivities({
        db: deps.store.db,
        resolveWorkspace,
        hooks: [
          createSafetyHooks({ ...safety, rateLimitScope }),
          createDqCloneHooks({ store: deps.store }),
          createContractCloneHooks({
            store: deps.store,
            client: deps.client,
            taskQueue: deps.config.temporal.task_queue,
          }),
        ],
        rateLimitScope,
      }),
      ...createSafetyActivities({ ...safety, rateLimitScope }),
      ...createDataQualityActivities({
        store: deps.store,
        workspaces: deps.workspaces,
        warehousePool,
        anomaly: {
          k: deps.config.data_quality.anomaly_k,
          minSamples: deps.config.data_quality.anomaly_min_baseline_samples,
          baselineDays: deps.config.data_quality.anomaly_baseline_days,
        },
      }),
      ...createContractActivities({ store: deps.store, workspaces: deps.workspaces }),
      ...createScheduleActivities(deps),
      ...createMdmActivities({ workspaces: deps.workspaces, store: deps.store }),
      ...createMdmStewardActivities({ store: deps.store }),
      ...createMdmReportActivities({ store: deps.store, workspaces: deps.workspaces }),
      ...createMdmScheduleActivities({ store: deps.store, services: deps.mdm }),
      ...createStorageActivities({ workspaces: deps.workspaces }),
      ...createSyncActivities({ db: deps.store.db, resolveWorkspace }),
      ...createStreamActivities({ db: deps.store.db, resolveWorkspace }),
      ...createWorkbenchActivities({ store: deps.store, workspaces: deps.workspaces }),
      ...createGeneratorActivities({ workspaces: deps.workspaces }),
      ...createWarehouseActivities({ db: deps.store.db, workspaces: deps.workspaces }),
      ...finops,
      ...createBudgetActivities({ store: deps.store, workspaces: deps.workspaces }),
      ...createRecommendationActivities({ config: deps.config, store: deps.store, workspaces: deps.workspaces }),
      ...createAutomationActivities({ ...deps, services: deps.automation }),
      ...createPipelineActivities({
        config: deps.config,
        store: deps.store,
        workspaces: deps.workspaces,
        services: deps.automation,
      }),
    }),
  );
}

export type Activities = ReturnType<typeof createActivities>;
