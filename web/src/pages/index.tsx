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
