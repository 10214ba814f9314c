import type { WorkspaceResolver } from '../../platform/workspace-resolver';
import type { IngestSourceSummary, MdmModel, MdmSource } from '../../schemas/mdm';
import { stopOnCancel, withHeartbeat } from '../clone/heartbeat';
import { ensureRecordsTable, ingestSource } from './ingest';

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
  };
}

export type MdmActivities = ReturnType<typeof createMdmActivities>;
