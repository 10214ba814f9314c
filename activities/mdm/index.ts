import type { WorkspaceResolver } from '../../platform/workspace-resolver';
import type { Store } from '../../store/db';
import type { MdmModel, MdmSource } from '../../schemas/mdm';
import type { IngestSourceSummary } from '../../schemas/mdm-runs';
import { stopOnCancel, withHeartbeat } from '../clone/heartbeat';
import { ensureRecordsTable, ingestSource } from './ingest';
import { comparePairs, prepareMatch, scorePairs, trainModel, type MatchStepInput } from './match';
import { clusterRecords } from './match-cluster';
import { publishGolden } from './match-publish';
import type { FsParams } from './logic/em';
import type { RuleForRun } from './logic/negative-match';
import { openRunCases, stewardDecisions, type StewardDecisions } from './match-cases';
import { applyNegativeMatch, recordBlocked, rulesForRun } from './negative-match';

/** MDM activities: every heavy step is SQL on the configured workspace (DuckDB locally, the warehouse on Databricks). */
/** `store` (the worker's) reads the negative-match rules and records what they blocked. */
export function createMdmActivities(deps: { workspaces: WorkspaceResolver; store?: Store }) {
  const workspace = async () => stopOnCancel(await deps.workspaces.default());
  return {
    async mdmEnsureTables(req: { catalog: string; model: MdmModel }): Promise<{ recreated: boolean }> {
      return { recreated: await ensureRecordsTable(await workspace(), req.catalog, req.model) };
    },
    async mdmIngestSource(req: {
      ingestId: string;
      catalog: string;
      model: MdmModel;
      source: MdmSource;
      ts: string;
    }): Promise<IngestSourceSummary> {
      return withHeartbeat(async () => ingestSource(await workspace(), req));
    },
    async mdmMatchPrepare(req: MatchStepInput & { maxPairs: number; incremental?: boolean }) {
      return withHeartbeat(async () => prepareMatch(await workspace(), req));
    },
    async mdmMatchCompare(req: MatchStepInput & { incremental?: boolean }) {
      return withHeartbeat(async () => comparePairs(await workspace(), req));
    },
    async mdmMatchTrain(req: MatchStepInput & { seed: number; sampleSize: number }) {
      return withHeartbeat(async () => trainModel(await workspace(), req));
    },
    async mdmMatchScore(
      req: MatchStepInput & { params: FsParams; mustLinks?: [string, string][]; incremental?: boolean },
    ) {
      return withHeartbeat(async () => scorePairs(await workspace(), req));
    },
    async mdmMatchCluster(req: MatchStepInput & { incremental?: boolean }) {
      return withHeartbeat(async () => clusterRecords(await workspace(), req));
    },
    async mdmMatchRules(req: { entityType: string }): Promise<RuleForRun[]> {
      return deps.store ? rulesForRun(deps.store.db, req.entityType) : [];
    },
    async mdmMatchNegative(req: MatchStepInput & { rules: RuleForRun[] }) {
      return withHeartbeat(async () => applyNegativeMatch(await workspace(), req));
    },
    async mdmMatchRecordBlocked(req: { runId: string; blocked: Record<string, number> }): Promise<void> {
      if (deps.store) await recordBlocked(deps.store.db, req.runId, req.blocked);
    },
    async mdmMatchDecisions(req: { entityType: string }): Promise<StewardDecisions> {
      if (!deps.store) return { mustLinks: [], cannotLinks: [], overrides: [] };
      return stewardDecisions(deps.store.db, req.entityType);
    },
    async mdmMatchCases(
      req: MatchStepInput & { params: FsParams | null; slaCalendar: string | null; decisions: StewardDecisions },
    ) {
      if (!deps.store) return { opened: {}, existing: 0 };
      const db = deps.store.db;
      return withHeartbeat(async () => openRunCases(await workspace(), db, req));
    },
    async mdmMatchPublish(
      req: MatchStepInput & { ts: string; overrides?: StewardDecisions['overrides']; incremental?: boolean },
    ) {
      return withHeartbeat(async () => publishGolden(await workspace(), req));
    },
  };
}

export type MdmActivities = ReturnType<typeof createMdmActivities>;
