/**
 * The catalog explorer's calls, shared by its components and the navigation prefetch (pages/prefetch.ts): a
 * navigation to /catalogs/… starts the calls its URL needs before the page renders, under the same keys.
 *
 * The two big answers (a schema's tables, up to 10,000; a table with its columns, up to thousands) skip TanStack
 * Query's structural sharing: a refetch would otherwise walk every row to keep unchanged ones; the tree and the
 * columns tab recompute from a new answer just as cheaply, and they only render the rows in view.
 */
import type { Api } from '../../api/client';
import { unwrap } from '../../api/errors';

export const catalogsQuery = (api: Api) => ({
  queryKey: ['catalogs'] as const,
  queryFn: () => unwrap(api.client.GET('/api/catalogs')),
});

export const schemasQuery = (api: Api, catalog: string) => ({
  queryKey: ['schemas', catalog] as const,
  queryFn: () => unwrap(api.client.GET('/api/catalogs/{catalog}/schemas', { params: { path: { catalog } } })),
});

export const tablesQuery = (api: Api, catalog: string, schema: string) => ({
  queryKey: ['tables', catalog, schema] as const,
  queryFn: () =>
    unwrap(
      api.client.GET('/api/catalogs/{catalog}/schemas/{schema}/tables', { params: { path: { catalog, schema } } }),
    ),
  structuralSharing: false,
});

export const tableQuery = (api: Api, fullName: string) => ({
  queryKey: ['table', fullName] as const,
  queryFn: () => unwrap(api.client.GET('/api/tables/{full_name}', { params: { path: { full_name: fullName } } })),
  structuralSharing: false,
});
