import type { WorkspaceResolver } from '../../platform/workspace-resolver';
import type { IngestSourceSummary, MdmModel, MdmSource } from '../../schemas/mdm';
import { stopOnCancel, withHeartbeat } from '../clone/heartbeat';
import { ensureRecordsTable, ingestSource } from './ingest';
import {
  clusterRecords,
  comparePairs,
  prepareMatch,
  publishGolden,
  scorePairs,
  trainModel,
  type MatchStepInput,
} from './match';
import type { FsParams } from './logic/em';

/** MDM activities: every heavy step is SQL on the configured workspace (DuckDB locally, the warehouse on Databricks). */
export function createMdmActivities(deps: { workspaces: WorkspaceResolver }) {
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
    async mdmMatchPrepare(req: MatchStepInput & { maxPairs: number }) {
      return withHeartbeat(async () => prepareMatch(await workspace(), req));
    },
    async mdmMatchCompare(req: MatchStepInput) {
      return withHeartbeat(async () => comparePairs(await workspace(), req));
    },
    async mdmMatchTrain(req: MatchStepInput & { seed: number; sampleSize: number }) {
      return withHeartbeat(async () => trainModel(await workspace(), req));
    },
    async mdmMatchScore(req: MatchStepInput & { params: FsParams }) {
      return withHeartbeat(async () => scorePairs(await workspace(), req));
    },
    async mdmMatchCluster(req: MatchStepInput) {
      return withHeartbeat(async () => clusterRecords(await workspace(), req));
    },
    async mdmMatchPublish(req: MatchStepInput & { ts: string }) {
      return withHeartbeat(async () => publishGolden(await workspace(), req));
    },
  };
}

export type MdmActivities = ReturnType<typeof createMdmActivities>;
