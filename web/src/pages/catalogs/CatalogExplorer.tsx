import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { unwrap } from '../../api/errors';
import { useConsole } from '../../shell/context';
import { ErrorView } from '../../shell/ErrorView';
import { TableDetails } from './TableDetails';

const enc = encodeURIComponent;
/** Tree links at least 24 px tall (WCAG 2.2 target size): names listed one under another stay easy to hit. */
const treeLink = { display: 'inline-block', minHeight: 24, lineHeight: '24px' } as const;

/**
 * /catalogs/:catalog?/:schema?/:table? — catalogs, then a catalog's schemas, then a schema's tables, each level read
 * only when opened (the URL says which), with a type-ahead filter; a table's details beside the tree.
 */
export function CatalogExplorer() {
  const { api } = useConsole();
  const { catalog, schema, table } = useParams();
  const [filter, setFilter] = useState('');
  const catalogs = useQuery({ queryKey: ['catalogs'], queryFn: () => unwrap(api.client.GET('/api/catalogs')) });
  const schemas = useQuery({
    queryKey: ['schemas', catalog],
    enabled: Boolean(catalog),
    queryFn: () =>
      unwrap(api.client.GET('/api/catalogs/{catalog}/schemas', { params: { path: { catalog: catalog! } } })),
  });
  const tables = useQuery({
    queryKey: ['tables', catalog, schema],
    enabled: Boolean(catalog && schema),
    queryFn: () =>
      unwrap(
        api.client.GET('/api/catalogs/{catalog}/schemas/{schema}/tables', {
          params: { path: { catalog: catalog!, schema: schema! } },
        }),
      ),
  });
  const match = (name: string) => name.toLowerCase().includes(filter.toLowerCase());

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
          <ul>
            {catalogs.data?.catalogs
              .filter((c) => c.name === catalog || match(c.name))
              .map((c) => (
                <li key={c.name}>
                  <Link
                    style={treeLink}
                    to={`/catalogs/${enc(c.name)}`}
                    aria-current={c.name === catalog && !schema ? 'page' : undefined}
                  >
                    {c.name}
                  </Link>
                  {c.name === catalog && (
                    <ul>
                      {schemas.isError && <ErrorView error={schemas.error} onRetry={() => void schemas.refetch()} />}
                      {schemas.data?.schemas
                        .filter((s) => s.name === schema || match(s.name))
                        .map((s) => (
                          <li key={s.name}>
                            <Link
                              style={treeLink}
                              to={`/catalogs/${enc(c.name)}/${enc(s.name)}`}
                              aria-current={s.name === schema && !table ? 'page' : undefined}
                            >
                              {s.name}
                            </Link>
                            {s.name === schema && (
                              <ul>
                                {tables.isError && (
                                  <ErrorView error={tables.error} onRetry={() => void tables.refetch()} />
                                )}
                                {tables.data?.tables
                                  .filter((t) => match(t.name))
                                  .map((t) => (
                                    <li key={t.name}>
                                      <Link
                                        style={treeLink}
                                        to={`/catalogs/${enc(c.name)}/${enc(s.name)}/${enc(t.name)}`}
                                        aria-current={t.name === table ? 'page' : undefined}
                                      >
                                        {t.name}
                                      </Link>{' '}
                                      <span className="marker">({t.type.toLowerCase()})</span>
                                    </li>
                                  ))}
                              </ul>
                            )}
                          </li>
                        ))}
                    </ul>
                  )}
                </li>
              ))}
          </ul>
        </nav>
        {catalog && schema && table && <TableDetails fullName={`${catalog}.${schema}.${table}`} />}
      </div>
    </section>
  );
}
