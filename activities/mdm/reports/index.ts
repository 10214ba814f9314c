import type { WorkspaceResolver } from '../../../platform/workspace-resolver';
import type { MdmReportInput, ReportResult } from '../../../schemas/mdm-reports';
import type { Store } from '../../../store/db';
import { runReport } from './run';

/** The `mdm_report` job's activity: computes the report's rows (store SQL, or SQL on the workspace). */
export function createMdmReportActivities(deps: { store: Store; workspaces: WorkspaceResolver }) {
  return {
    async mdmRunReport(input: MdmReportInput): Promise<ReportResult> {
      return runReport({ store: deps.store, ws: () => deps.workspaces.default(), input });
    },
  };
}

export type MdmReportActivities = ReturnType<typeof createMdmReportActivities>;
