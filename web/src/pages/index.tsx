import { useEffect, useState, type ComponentType } from 'react';
import { matchPath, type RouteObject } from 'react-router';
import { PAGES, type PageEntry, type PageId } from '../manifest';

/** A page's chunk, loaded once (on first visit, or ahead of it by preloadPage), then rendered without suspending. */
interface PageChunk {
  load: () => Promise<ComponentType>;
  loaded?: ComponentType;
}

function lazy(factory: () => Promise<{ default: ComponentType }>): PageChunk {
  let pending: Promise<ComponentType> | undefined;
  const chunk: PageChunk = {
    load: () =>
      (pending ??= factory().then(
        (m) => (chunk.loaded = m.default),
        (err: unknown) => {
          pending = undefined; // a failed fetch is tried again on the next visit
          throw err;
        },
      )),
  };
  return chunk;
}

/** Each page is its own chunk, loaded when first visited, so the initial JS is the shell alone. */
const COMPONENTS: Record<PageId, PageChunk> = {
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

/** Starts loading the chunk of the page at `pathname` (no-op when none matches or it is loaded). */
export function preloadPage(pathname: string): void {
  const page = PAGES.find((p) => matchPath(p.path, pathname));
  if (page) COMPONENTS[page.id as PageId].load().catch(() => undefined);
}

// The opened URL's chunk loads while the shell reads /config.json and the operations, not after them.
if (typeof window !== 'undefined') preloadPage(window.location.pathname);

/**
 * A page, rendered at once when its chunk is loaded; otherwise a loading message, replaced as soon as the chunk
 * arrives (Suspense would hold the page back ~300 ms after showing its fallback).
 */
function PageLoader({ chunk, title }: { chunk: PageChunk; title: string }) {
  const [Page, setPage] = useState<ComponentType | undefined>(() => chunk.loaded);
  const [failed, setFailed] = useState<unknown>();
  useEffect(() => {
    if (!Page) chunk.load().then((c) => setPage(() => c), setFailed);
  }, [Page, chunk]);
  if (failed) throw failed; // to the router's error element, as a failed lazy import did
  return Page ? <Page /> : <p role="status">Loading {title.toLowerCase()}…</p>;
}

/** Routes for the pages the server supports (manifest.ts decides which). */
export function routesFor(pages: PageEntry[]): RouteObject[] {
  return pages.map((p) => ({
    path: p.path,
    element: <PageLoader key={p.id} chunk={COMPONENTS[p.id as PageId]} title={p.title} />,
  }));
}
