import { useIsFetching, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useParams } from 'react-router';
import { unwrap } from '../../api/errors';
import { useConsole } from '../../shell/context';
import { ErrorView } from '../../shell/ErrorView';
import { CatalogTree } from './CatalogTree';
import { TableDetails } from './TableDetails';
import { treeRows } from './treeRows';
import './tree.css';

const NONE: never[] = [];

/**
 * /catalogs/:catalog?/:schema?/:table? — catalogs, then a catalog's schemas, then a schema's tables, each level read
 * only when opened (the URL says which), with a filter on names; the tree is virtualised (10,000 tables paint only
 * the rows in view) and a table's details show beside it.
 */
export function CatalogExplorer() {
  const { api } = useConsole();
  const { catalog, schema, table } = useParams();
  const [filter, setFilter] = useState('');
  // A URL naming a table reads the table first (TableDetails, the page's content), then the tree's listings: on a
  // cold open they would otherwise share the server with the call the page is for.
  const queryClient = useQueryClient();
  const detailKey = ['table', `${catalog}.${schema}.${table}`];
  useIsFetching({ queryKey: detailKey }); // re-renders when the table's call settles
  const treeReady = !table || (queryClient.getQueryState(detailKey)?.status ?? 'pending') !== 'pending';
  const catalogs = useQuery({
    queryKey: ['catalogs'],
    enabled: treeReady,
    queryFn: () => unwrap(api.client.GET('/api/catalogs')),
  });
  const schemas = useQuery({
    queryKey: ['schemas', catalog],
    enabled: treeReady && Boolean(catalog),
    queryFn: () =>
      unwrap(api.client.GET('/api/catalogs/{catalog}/schemas', { params: { path: { catalog: catalog! } } })),
  });
  const tables = useQuery({
    queryKey: ['tables', catalog, schema],
    enabled: treeReady && Boolean(catalog && schema),
    queryFn: () =>
      unwrap(
        api.client.GET('/api/catalogs/{catalog}/schemas/{schema}/tables', {
          params: { path: { catalog: catalog!, schema: schema! } },
        }),
      ),
  });
  const rows = useMemo(
    () =>
      treeRows({
        catalogs: catalogs.data?.catalogs ?? NONE,
        schemas: (catalog && schemas.data?.schemas) || NONE,
        tables: (catalog && schema && tables.data?.tables) || NONE,
        catalog,
        schema,
        table,
        filter,
      }),
    [catalogs.data, schemas.data, tables.data, catalog, schema, table, filter],
  );
  const loading = treeReady ? [catalogs, schemas, tables].find((q) => q.isLoading) : catalogs;

  return (
    <section aria-labelledby="catalogs-title">
      <h1 id="catalogs-title">Catalog explorer</h1>
      <div className="field">
        <label htmlFor="catalog-filter">Filter names</label>
        <input id="catalog-filter" value={filter} onChange={(e) => setFilter(e.target.value)} />
      </div>
      <div className="cards">
        <nav aria-label="Catalog tree" className="card">
          {catalogs.isError && <ErrorView error={catalogs.error} onRetry={() => void catalogs.refetch()} />}
          {schemas.isError && <ErrorView error={schemas.error} onRetry={() => void schemas.refetch()} />}
          {tables.isError && <ErrorView error={tables.error} onRetry={() => void tables.refetch()} />}
          {loading && (
            <p role="status">
              Loading {loading === catalogs ? 'catalogs' : loading === schemas ? 'schemas' : 'tables'}…
            </p>
          )}
          <CatalogTree rows={rows} label="Catalogs, schemas and tables" />
        </nav>
        {catalog && schema && table && <TableDetails fullName={`${catalog}.${schema}.${table}`} />}
      </div>
    </section>
  );
}
