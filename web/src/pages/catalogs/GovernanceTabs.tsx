import { useQuery } from '@tanstack/react-query';
import { unwrap } from '../../api/errors';
import { useConsole } from '../../shell/context';
import { ErrorView } from '../../shell/ErrorView';

/** A pass/fail word with a symbol (never colour alone). */
function Outcome({ ok, text }: { ok: boolean; text: string }) {
  return (
    <span data-status={ok ? 'passed' : 'failed'}>
      <span aria-hidden="true">{ok ? '✓' : '✕'}</span> {text}
    </span>
  );
}

/** Quality tab: the table's checks and its latest runs (GET /api/governance/dqx/checks and /runs of the table). */
export function QualityTab({ fullName }: { fullName: string }) {
  const { api } = useConsole();
  const query = { table_fqn: fullName };
  const checks = useQuery({
    queryKey: ['table-checks', fullName],
    queryFn: () => unwrap(api.client.GET('/api/governance/dqx/checks', { params: { query } })),
  });
  const runs = useQuery({
    queryKey: ['table-dq-runs', fullName],
    queryFn: () => unwrap(api.client.GET('/api/governance/dqx/runs', { params: { query: { ...query, limit: 10 } } })),
  });
  return (
    <div data-testid="table-quality">
      <h4>Checks</h4>
      {checks.isError && <ErrorView error={checks.error} onRetry={() => void checks.refetch()} />}
      {checks.data &&
        (checks.data.length === 0 ? (
          <p>No checks on this table.</p>
        ) : (
          <table>
            <caption>{checks.data.length} checks</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Function</th>
                <th scope="col">Criticality</th>
                <th scope="col">Enabled</th>
              </tr>
            </thead>
            <tbody>
              {checks.data.map((c) => (
                <tr key={c.id}>
                  <td>{c.name}</td>
                  <td>{c.check_function}</td>
                  <td>{c.criticality}</td>
                  <td>{c.enabled ? 'yes' : 'no'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ))}
      <h4>Latest runs</h4>
      {runs.isError && <ErrorView error={runs.error} onRetry={() => void runs.refetch()} />}
      {runs.data &&
        (runs.data.length === 0 ? (
          <p>No quality runs of this table.</p>
        ) : (
          <table>
            <caption>The last {runs.data.length} runs, newest first</caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Outcome</th>
                <th scope="col">Rows</th>
                <th scope="col">Invalid</th>
                <th scope="col">Checks</th>
              </tr>
            </thead>
            <tbody>
              {runs.data.map((r) => (
                <tr key={r.run_id}>
                  <td>{new Date(r.executed_at).toLocaleString()}</td>
                  <td>
                    {r.status === 'failed' ? (
                      <Outcome ok={false} text={`run failed${r.error ? `: ${r.error}` : ''}`} />
                    ) : (
                      <Outcome ok={r.invalid_rows === 0} text={`${Math.round(r.pass_rate * 10) / 10} % pass rate`} />
                    )}
                  </td>
                  <td>{r.total_rows}</td>
                  <td>{r.invalid_rows}</td>
                  <td>{r.checks_applied}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ))}
    </div>
  );
}

/** Contract tab: the data contracts attached to this table (the table's links), each with its latest validations. */
export function ContractTab({ fullName, names }: { fullName: string; names: string[] }) {
  if (names.length === 0) return <p data-testid="table-contract">No data contract is attached to {fullName}.</p>;
  return (
    <div data-testid="table-contract">
      {names.map((n) => (
        <Contract key={n} id={n} fullName={fullName} />
      ))}
    </div>
  );
}

function Contract({ id, fullName }: { id: string; fullName: string }) {
  const { api } = useConsole();
  const q = useQuery({
    queryKey: ['contract', id],
    queryFn: () => unwrap(api.client.GET('/api/governance/odcs/{id}', { params: { path: { id } } })),
  });
  if (q.isError) return <ErrorView error={q.error} onRetry={() => void q.refetch()} />;
  if (!q.data) return <p role="status">Reading contract {id}…</p>;
  const c = q.data;
  return (
    <section aria-labelledby={`contract-${c.name}`} className="card">
      <h4 id={`contract-${c.name}`}>
        {c.name}{' '}
        <span className="marker">
          ({c.status}, version {c.version})
        </span>
      </h4>
      <p>
        Severity {c.severity}; validated {c.schedule ? `on schedule ${c.schedule}` : 'on demand'}.
      </p>
      <Validations id={c.name} fullName={fullName} />
    </section>
  );
}

function Validations({ id, fullName }: { id: string; fullName: string }) {
  const { api } = useConsole();
  const q = useQuery({
    queryKey: ['contract-validations', id],
    queryFn: () => unwrap(api.client.GET('/api/governance/odcs/{id}/validations', { params: { path: { id } } })),
  });
  if (q.isError) return <ErrorView error={q.error} onRetry={() => void q.refetch()} />;
  if (!q.data) return <p role="status">Reading validations…</p>;
  const mine = q.data.filter((v) => v.table_fqn === fullName).slice(0, 5);
  if (mine.length === 0) return <p>Not validated against this table yet.</p>;
  return (
    <table>
      <caption>Latest validations</caption>
      <thead>
        <tr>
          <th scope="col">When</th>
          <th scope="col">Version</th>
          <th scope="col">Outcome</th>
          <th scope="col">Violations</th>
          <th scope="col">Trigger</th>
        </tr>
      </thead>
      <tbody>
        {mine.map((v) => (
          <tr key={v.validation_id}>
            <td>{new Date(v.created_at).toLocaleString()}</td>
            <td>{v.version}</td>
            <td>
              <Outcome ok={v.violation_count === 0} text={v.status} />
            </td>
            <td>{v.violation_count}</td>
            <td>{v.trigger}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
