import type { RouteObject } from 'react-router';
import type { PageEntry, PageId } from '../manifest';
import { CloneWizard } from './clone/CloneWizard';
import { Dashboard } from './dashboard/Dashboard';
import { JobPage } from './jobs/JobPage';
import { JobsList } from './jobs/JobsList';

const COMPONENTS: Record<PageId, () => React.ReactElement> = {
  dashboard: Dashboard,
  jobs: JobsList,
  job: JobPage,
  clone: CloneWizard,
};

/** Routes for the pages the server supports (manifest.ts decides which). */
export function routesFor(pages: PageEntry[]): RouteObject[] {
  return pages.map((p) => {
    const Component = COMPONENTS[p.id as PageId];
    return { path: p.path, element: <Component /> };
  });
}
