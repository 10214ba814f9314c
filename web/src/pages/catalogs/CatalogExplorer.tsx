import { useIsFetching, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useParams } from 'react-router';
import { useConsole } from '../../shell/context';
import { ErrorView } from '../../shell/ErrorView';
import { CatalogTree } from './CatalogTree';
import { catalogsQuery, schemasQuery, tableQuery, tablesQuery } from './queries';
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
  // The deepest level the URL names is the page's own call (a table, else a schema's tables, else a catalog's
  // schemas); the other listings wait until it is answered, so they never share the server with it. Until then
  // the levels the URL names stand in for their lists in the tree.
  const queryClient = useQueryClient();
  const main = table
    ? tableQuery(api, `${catalog}.${schema}.${table}`).queryKey
    : schema
      ? tablesQuery(api, catalog!, schema).queryKey
      : catalog
        ? schemasQuery(api, catalog).queryKey
        : catalogsQuery(api).queryKey;
  useIsFetching({ queryKey: main }); // re-renders when the page's own call settles
  const settled = (queryClient.getQueryState(main)?.status ?? 'pending') !== 'pending';
  const catalogs = useQuery({ ...catalogsQuery(api), enabled: !catalog || settled });
  const schemas = useQuery({
    ...schemasQuery(api, catalog ?? ''),
    enabled: Boolean(catalog) && (!schema || settled),
  });
  const tables = useQuery({
    ...tablesQuery(api, catalog ?? '', schema ?? ''),
    enabled: Boolean(catalog && schema) && (!table || settled),
  });
  const rows = useMemo(
    () =>
      treeRows({
        catalogs: catalogs.data?.catalogs ?? (catalog ? [{ name: catalog }] : NONE),
        schemas: (catalog && (schemas.data?.schemas ?? (schema ? [{ name: schema }] : NONE))) || NONE,
        tables: (catalog && schema && tables.data?.tables) || NONE,
        catalog,
        schema,
        table,
        filter,
      }),
    [catalogs.data, schemas.data, tables.data, catalog, schema, table, filter],
  );
  const loading = [tables, schemas, catalogs].find((q) => q.isLoading);

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
