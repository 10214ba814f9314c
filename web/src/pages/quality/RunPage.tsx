import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { unwrap } from '../../api/errors';
import { useConsole } from '../../shell/context';
import { ErrorView } from '../../shell/ErrorView';
import { PassRate, pct, QualityNav, Status } from './status';

const cellText = (v: unknown) =>
  v === null || v === undefined ? '∅ null' : typeof v === 'object' ? JSON.stringify(v) : String(v);

/** /quality/runs/:runId: a run's counts, each check's failures, and the failing rows kept as samples. */
export function RunPage() {
  const { api } = useConsole();
  const runId = useParams().runId ?? '';
  const run = useQuery({
    queryKey: ['dq-run', runId],
    queryFn: () => unwrap(api.client.GET('/api/governance/dqx/runs/{run_id}', { params: { path: { run_id: runId } } })),
  });
  const samples = useQuery({
    queryKey: ['dq-samples', runId],
    queryFn: () =>
      unwrap(api.client.GET('/api/data-quality/failure-samples', { params: { query: { run_id: runId, limit: 100 } } })),
  });
  const r = run.data;
  const sampleColumns = [...new Set((samples.data ?? []).flatMap((s) => Object.keys(s.row_data)))];
  return (
    <section aria-labelledby="run-title">
      <h1 id="run-title">Run {r ? `of ${r.table_fqn}` : runId}</h1>
      <QualityNav />
      {run.isError && <ErrorView error={run.error} onRetry={() => void run.refetch()} />}
      {run.isPending && <p role="status">Loading the run…</p>}
      {r && (
        <>
          <p data-testid="run-result">
            <PassRate rate={r.pass_rate} status={r.status} /> — {r.valid_rows} valid, {r.invalid_rows} invalid,{' '}
            {r.warning_rows} with warnings of {r.total_rows} rows; {r.checks_applied} checks in {r.execution_time_ms}{' '}
            ms, {new Date(r.executed_at).toLocaleString()} by {r.executed_by} (job{' '}
            <Link to={`/jobs/${encodeURIComponent(r.job_id)}`}>{r.job_id}</Link>)
          </p>
          {r.error && <p className="error-box">✕ {r.error}</p>}
          <table data-testid="run-checks">
            <caption>Checks of this run</caption>
            <thead>
              <tr>
                <th scope="col">Check</th>
                <th scope="col">Function</th>
                <th scope="col">Level</th>
                <th scope="col">Criticality</th>
                <th scope="col">Failures</th>
              </tr>
            </thead>
            <tbody>
              {r.check_results.map((c) => (
                <tr key={c.check_id}>
                  <td>{c.name}</td>
                  <td>{c.check_function}</td>
                  <td>{c.level}</td>
                  <td>{c.criticality}</td>
                  <td>
                    {c.failures === 0 ? (
                      <Status value="passed" />
                    ) : (
                      <span data-status="failed">
                        <span aria-hidden="true">✕</span> {c.failures} ({pct(c.failure_pct)})
                      </span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
      <h2>Failure samples</h2>
      {samples.isError && <ErrorView error={samples.error} onRetry={() => void samples.refetch()} />}
      {samples.data &&
        (samples.data.length === 0 ? (
          <p>No failing row was kept for this run.</p>
        ) : (
          <div className="scroll" role="region" tabIndex={0} aria-label="Failure samples">
            <table data-testid="failure-samples">
              <caption className="skip-link">Failing rows with the checks each failed</caption>
              <thead>
                <tr>
                  <th scope="col">#</th>
                  <th scope="col">Failed checks</th>
                  {sampleColumns.map((c) => (
                    <th scope="col" key={c}>
                      {c}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {samples.data.map((s) => (
                  <tr key={s.sample_index}>
                    <td>{s.sample_index + 1}</td>
                    <td>
                      {s.failed_checks.errors.map((e) => (
                        <div key={e}>✕ error: {e}</div>
                      ))}
                      {s.failed_checks.warnings.map((w) => (
                        <div key={w}>⚠ warning: {w}</div>
                      ))}
                    </td>
                    {sampleColumns.map((c) => (
                      <td key={c}>{cellText(s.row_data[c])}</td>
                    ))}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        ))}
    </section>
  );
}
