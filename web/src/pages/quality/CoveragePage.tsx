import { useQuery } from '@tanstack/react-query';
import { createColumnHelper } from '@tanstack/react-table';
import { useNavigate, useParams } from 'react-router';
import { unwrap } from '../../api/errors';
import { useConsole } from '../../shell/context';
import { ErrorView } from '../../shell/ErrorView';
import { pct, QualityNav, Status } from './status';
import { VirtualTable } from './VirtualTable';

interface Row {
  table_fqn: string;
  check_count: number;
  enabled_count: number;
  covered: boolean;
}
const col = createColumnHelper<Row>();
const columns = [
  col.accessor('table_fqn', { header: 'Table' }),
  col.accessor((r) => (r.covered ? 'covered' : 'no checks'), {
    id: 'covered',
    header: 'Coverage',
    cell: (c) => (
      <span data-status={c.row.original.covered ? 'passed' : 'gap'}>
        <span aria-hidden="true">{c.row.original.covered ? '✓' : '✕'}</span> {c.getValue()}
      </span>
    ),
  }),
  col.accessor('check_count', { header: 'Checks' }),
  col.accessor('enabled_count', { header: 'Enabled' }),
];

/** /quality/coverage/:catalog: the tables of a catalog with and without checks. */
export function CoveragePage() {
  const { api } = useConsole();
  const navigate = useNavigate();
  const catalog = useParams().catalog ?? '';
  const catalogs = useQuery({
    queryKey: ['catalogs'],
    queryFn: () => unwrap(api.client.GET('/api/catalogs')),
  });
  const cov = useQuery({
    queryKey: ['dq-coverage', catalog],
    queryFn: () => unwrap(api.client.GET('/api/data-quality/coverage/{catalog}', { params: { path: { catalog } } })),
    enabled: catalog !== '',
  });
  const rows: Row[] = cov.data
    ? [
        ...cov.data.covered_tables.map((t) => ({ ...t, covered: true })),
        ...cov.data.uncovered_tables.map((t) => ({ ...t, check_count: 0, enabled_count: 0, covered: false })),
      ]
    : [];
  return (
    <section aria-labelledby="coverage-title">
      <h1 id="coverage-title">Check coverage{catalog ? ` of ${catalog}` : ''}</h1>
      <QualityNav />
      {catalogs.isError && <ErrorView error={catalogs.error} onRetry={() => void catalogs.refetch()} />}
      <label className="field">
        Catalog
        <select
          value={catalog}
          onChange={(e) =>
            void navigate(
              e.target.value ? `/quality/coverage/${encodeURIComponent(e.target.value)}` : '/quality/coverage',
            )
          }
        >
          <option value="">choose a catalog</option>
          {(catalogs.data?.catalogs ?? []).map((c) => (
            <option key={c.name}>{c.name}</option>
          ))}
        </select>
      </label>
      {cov.isError && <ErrorView error={cov.error} onRetry={() => void cov.refetch()} />}
      {cov.isFetching && !cov.data && <p role="status">Reading the catalog…</p>}
      {cov.data && (
        <>
          <p data-testid="coverage-summary">
            <Status value={cov.data.uncovered === 0 ? 'passed' : 'partial'} />: {cov.data.covered} of{' '}
            {cov.data.total_tables} tables have checks ({pct(cov.data.coverage_pct)}); {cov.data.uncovered} have none.
          </p>
          <VirtualTable
            rows={rows}
            columns={columns}
            caption={`Tables of ${catalog} with and without checks`}
            testId="dq-coverage"
            rowTestId="dq-coverage-row"
            rowKey={(r) => r.table_fqn}
          />
        </>
      )}
    </section>
  );
}
