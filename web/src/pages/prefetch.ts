/**
 * A navigation starts the calls of the page it opens before the page renders: the shell calls prefetchPageData
 * on every location change (and for the opened URL as soon as the API is known), so the call runs while React
 * renders and the page's first render finds it in flight under the same query key. Only the lists the console
 * opens at scale are here (jobs, the catalog explorer); other pages call on mount.
 */
import type { QueryClient } from '@tanstack/react-query';
import { matchPath } from 'react-router';
import type { Api } from '../api/client';
import { catalogsQuery, schemasQuery, tableQuery, tablesQuery } from './catalogs/queries';
import { initialJobsFilters, jobsListQuery } from './jobs/jobsQuery';

export function prefetchPageData(pathname: string, api: Api, queryClient: QueryClient): void {
  const go = <T>(q: { queryKey: readonly unknown[]; queryFn: () => Promise<T> }) => void queryClient.prefetchQuery(q);
  if (matchPath('/jobs', pathname)) return go(jobsListQuery(api, initialJobsFilters()));
  const m = matchPath('/catalogs/:catalog?/:schema?/:table?', pathname);
  if (!m) return;
  const [catalog, schema, table] = [m.params.catalog, m.params.schema, m.params.table].map(decode);
  // The deepest level the URL names is the page's own call; the explorer lists the others once it is answered.
  if (catalog && schema && table) go(tableQuery(api, `${catalog}.${schema}.${table}`));
  else if (catalog && schema) go(tablesQuery(api, catalog, schema));
  else if (catalog) go(schemasQuery(api, catalog));
  else go(catalogsQuery(api));
}

/** A path segment as the router hands it to the page (decoded); a malformed escape stays as it is. */
function decode(segment: string | undefined): string | undefined {
  if (segment === undefined) return undefined;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
