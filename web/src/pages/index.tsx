import { lazy, Suspense, type ComponentType } from 'react';
import type { RouteObject } from 'react-router';
import type { PageEntry, PageId } from '../manifest';

/** Each page is its own chunk, loaded when first visited, so the initial JS is the shell alone. */
const COMPONENTS: Record<PageId, ComponentType> = {
  dashboard: lazy(() => import('./dashboard/Dashboard').then((m) => ({ default: m.Dashboard }))),
  jobs: lazy(() => import('./jobs/JobsList').then((m) => ({ default: m.JobsList }))),
  job: lazy(() => import('./jobs/JobPage').then((m) => ({ default: m.JobPage }))),
  catalogs: lazy(() => import('./catalogs/CatalogExplorer').then((m) => ({ default: m.CatalogExplorer }))),
  convert: lazy(() => import('./convert/ConvertPage').then((m) => ({ default: m.ConvertPage }))),
  workbench: lazy(() => import('./workbench/Workbench').then((m) => ({ default: m.Workbench }))),
  notebooks: lazy(() => import('./notebooks/NotebooksList').then((m) => ({ default: m.NotebooksList }))),
  notebook: lazy(() => import('./notebooks/NotebookPage').then((m) => ({ default: m.NotebookPage }))),
  clone: lazy(() => import('./clone/CloneWizard').then((m) => ({ default: m.CloneWizard }))),
  compare: lazy(() => import('./compare/ComparePage').then((m) => ({ default: m.ComparePage }))),
  schedules: lazy(() => import('./schedules/SchedulesPage').then((m) => ({ default: m.SchedulesPage }))),
  'mdm-stewardship': lazy(() => import('./mdm/StewardshipQueue').then((m) => ({ default: m.StewardshipQueue }))),
  cost: lazy(() => import('./cost/CostPage').then((m) => ({ default: m.CostPage }))),
  automation: lazy(() => import('./automation/AutomationPage').then((m) => ({ default: m.AutomationPage }))),
  quality: lazy(() => import('./quality/QualityDashboard').then((m) => ({ default: m.QualityDashboard }))),
  'quality-checks': lazy(() => import('./quality/ChecksPage').then((m) => ({ default: m.ChecksPage }))),
  'quality-runs': lazy(() => import('./quality/RunsPage').then((m) => ({ default: m.RunsPage }))),
  'quality-run': lazy(() => import('./quality/RunPage').then((m) => ({ default: m.RunPage }))),
  'quality-coverage': lazy(() => import('./quality/CoveragePage').then((m) => ({ default: m.CoveragePage }))),
  'quality-profiles': lazy(() => import('./quality/ProfilesPage').then((m) => ({ default: m.ProfilesPage }))),
  'quality-anomalies': lazy(() => import('./quality/AnomaliesPage').then((m) => ({ default: m.AnomaliesPage }))),
  contracts: lazy(() => import('./contracts/ContractsPage').then((m) => ({ default: m.ContractsPage }))),
  contract: lazy(() => import('./contracts/ContractPage').then((m) => ({ default: m.ContractPage }))),
  compliance: lazy(() => import('./compliance/CompliancePage').then((m) => ({ default: m.CompliancePage }))),
  glossary: lazy(() => import('./glossary/GlossaryPage').then((m) => ({ default: m.GlossaryPage }))),
  'glossary-term': lazy(() => import('./glossary/TermPage').then((m) => ({ default: m.TermPage }))),
  policies: lazy(() => import('./policies/PoliciesPage').then((m) => ({ default: m.PoliciesPage }))),
};

/** Routes for the pages the server supports (manifest.ts decides which). */
export function routesFor(pages: PageEntry[]): RouteObject[] {
  return pages.map((p) => {
    const Component = COMPONENTS[p.id as PageId];
    return {
      path: p.path,
      element: (
        <Suspense fallback={<p role="status">Loading {p.title.toLowerCase()}…</p>}>
          <Component />
        </Suspense>
      ),
    };
  });
}
