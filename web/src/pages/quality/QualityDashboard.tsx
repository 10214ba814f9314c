import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { unwrap } from '../../api/errors';
import { useConsole } from '../../shell/context';
import { ErrorView } from '../../shell/ErrorView';
import { ChartTable } from '../charts/ChartTable';
import { PassRate, QualityNav } from './status';

const RECENT = 20;

/**
 * /quality: check counts, the overall pass rate, the pass rate of the recent runs (chart and table, oldest
 * first) and the latest run per table, worst first.
 */
export function QualityDashboard() {
  const { api } = useConsole();
  const q = useQuery({
    queryKey: ['dq-dashboard'],
    queryFn: () => unwrap(api.client.GET('/api/governance/dqx/dashboard')),
    refetchInterval: 15_000,
  });
  const runs = useQuery({
    queryKey: ['dq-runs', 'recent', RECENT],
    queryFn: () => unwrap(api.client.GET('/api/governance/dqx/runs', { params: { query: { limit: RECENT } } })),
    refetchInterval: 15_000,
  });
  const d = q.data;
  return (
    <section aria-labelledby="dq-title">
      <h1 id="dq-title">Data quality</h1>
      <QualityNav />
      {q.isError && <ErrorView error={q.error} onRetry={() => void q.refetch()} />}
      {q.isPending && <p role="status">Loading the data-quality summary…</p>}
      {d && (
        <>
          <dl className="cards" data-testid="dq-summary">
            {(
              [
                ['Checks', `${d.total_checks} (${d.enabled_checks} enabled)`],
                ['Tables with checks', d.tables_with_checks],
                ['Profiled tables', d.profiled_tables],
                ['Tables run', d.tables_run],
                ['Rows checked', d.total_rows],
                ['Invalid rows', d.invalid_rows],
              ] as const
            ).map(([k, v]) => (
              <div className="card" key={k}>
                <dt>{k}</dt>
                <dd>{v}</dd>
              </div>
            ))}
            <div className="card">
              <dt>Overall pass rate</dt>
              <dd>{d.tables_run ? <PassRate rate={d.overall_pass_rate} /> : 'no run yet'}</dd>
            </div>
          </dl>
          <h2>Pass rate of the recent runs</h2>
          {runs.isError && <ErrorView error={runs.error} onRetry={() => void runs.refetch()} />}
          {runs.data && (
            <ChartTable
              testId="dq-recent-runs"
              caption={`Pass rate of the last ${runs.data.length} runs, oldest first (percent of rows passing)`}
              rows={[...runs.data].reverse()}
              category={{ label: 'Run', of: (r) => new Date(r.executed_at).toLocaleString() }}
              domain={[0, 100]}
              columns={[
                { key: 'table', label: 'Table', cell: (r) => r.table_fqn },
                {
                  key: 'pass_rate',
                  label: 'Pass rate',
                  cell: (r) => <PassRate rate={r.pass_rate} status={r.status} />,
                  plot: (r) => (r.status === 'failed' ? 0 : r.pass_rate),
                },
                { key: 'invalid', label: 'Invalid rows', cell: (r) => `${r.invalid_rows} of ${r.total_rows}` },
                {
                  key: 'open',
                  label: 'Details',
                  cell: (r) => (
                    <Link to={`/quality/runs/${encodeURIComponent(r.run_id)}`}>open the run of {r.table_fqn}</Link>
                  ),
                },
              ]}
              empty={
                <>
                  No run yet: <Link to="/quality/runs">run a table&apos;s checks</Link>.
                </>
              }
            />
          )}
          <h2>Latest run per table (worst first)</h2>
          {d.latest_runs.length === 0 ? (
            <p>
              No table has been run yet: <Link to="/quality/runs">run a table&apos;s checks</Link>.
            </p>
          ) : (
            <table data-testid="dq-latest-runs">
              <caption className="skip-link">Latest run per table</caption>
              <thead>
                <tr>
                  <th scope="col">Table</th>
                  <th scope="col">Result</th>
                  <th scope="col">Rows</th>
                  <th scope="col">Invalid</th>
                  <th scope="col">Checks</th>
                  <th scope="col">Run</th>
                </tr>
              </thead>
              <tbody>
                {d.latest_runs.map((r) => (
                  <tr key={r.run_id}>
                    <td>{r.table_fqn}</td>
                    <td>
                      <PassRate rate={r.pass_rate} status={r.status} />
                    </td>
                    <td>{r.total_rows}</td>
                    <td>{r.invalid_rows}</td>
                    <td>{r.checks_applied}</td>
                    <td>
                      <Link to={`/quality/runs/${encodeURIComponent(r.run_id)}`}>
                        {new Date(r.executed_at).toLocaleString()}
                      </Link>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
        </>
      )}
    </section>
  );
}
