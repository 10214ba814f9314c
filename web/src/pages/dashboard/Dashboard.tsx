import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { Bar, BarChart, CartesianGrid, Tooltip, XAxis, YAxis } from 'recharts';
import { unwrap } from '../../api/errors';
import { useConsole } from '../../shell/context';
import { ErrorView } from '../../shell/ErrorView';
import { StatusText } from '../jobs/status';

/** Jobs by status (chart and table), running jobs, failures, catalog health, notifications with the unread count. */
export function Dashboard() {
  const { api } = useConsole();
  const stats = useQuery({
    queryKey: ['dashboard-stats'],
    queryFn: () => unwrap(api.client.GET('/api/dashboard/stats')),
    refetchInterval: 10_000,
  });
  const running = useQuery({
    queryKey: ['jobs', 'running'],
    queryFn: () => unwrap(api.client.GET('/api/jobs', { params: { query: { status: 'running', limit: 20 } } })),
    refetchInterval: 5_000,
  });
  const failed = useQuery({
    queryKey: ['jobs', 'failed'],
    queryFn: () => unwrap(api.client.GET('/api/jobs', { params: { query: { status: 'failed', limit: 10 } } })),
  });
  const health = useQuery({
    queryKey: ['catalog-health'],
    queryFn: () => unwrap(api.client.GET('/api/catalog-health')),
  });
  const notes = useQuery({
    queryKey: ['notifications'],
    queryFn: () => unwrap(api.client.GET('/api/notifications', { params: { query: { peek: 'true', limit: 10 } } })),
  });
  const byStatus = Object.entries(stats.data?.by_status ?? {}).map(([status, count]) => ({ status, count }));

  return (
    <section aria-labelledby="dash-title">
      <h1 id="dash-title">Dashboard</h1>
      <h2>Jobs by status</h2>
      {stats.isError && <ErrorView error={stats.error} onRetry={() => void stats.refetch()} />}
      {stats.data && (
        <div className="cards">
          <figure aria-label="Jobs by status chart (the table beside it has the same numbers)">
            <BarChart width={360} height={200} data={byStatus} accessibilityLayer>
              <CartesianGrid strokeDasharray="3 3" />
              <XAxis dataKey="status" />
              <YAxis allowDecimals={false} />
              <Tooltip />
              <Bar dataKey="count" fill="#5470c6" />
            </BarChart>
          </figure>
          <table data-testid="jobs-by-status">
            <caption>Jobs by status ({stats.data.total_jobs} in all)</caption>
            <thead>
              <tr>
                <th scope="col">Status</th>
                <th scope="col">Jobs</th>
              </tr>
            </thead>
            <tbody>
              {byStatus.map((r) => (
                <tr key={r.status}>
                  <td>
                    <StatusText status={r.status} />
                  </td>
                  <td>{r.count}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <h2>Running now</h2>
      {running.isError && <ErrorView error={running.error} onRetry={() => void running.refetch()} />}
      {running.data && (running.data.length === 0 ? <p>No job is running.</p> : <JobLinks jobs={running.data} />)}
      <h2>Recent failures</h2>
      {failed.isError && <ErrorView error={failed.error} onRetry={() => void failed.refetch()} />}
      {failed.data && (failed.data.length === 0 ? <p>No failed job.</p> : <JobLinks jobs={failed.data} />)}
      <h2>Catalog health</h2>
      {health.isError && <ErrorView error={health.error} onRetry={() => void health.refetch()} />}
      {health.data && (
        <table>
          <caption>Per catalog: jobs, failures and the success share</caption>
          <thead>
            <tr>
              <th scope="col">Catalog</th>
              <th scope="col">Jobs</th>
              <th scope="col">Failed</th>
              <th scope="col">Score</th>
            </tr>
          </thead>
          <tbody>
            {health.data.catalogs.map((c) => (
              <tr key={c.catalog}>
                <td>{c.catalog}</td>
                <td>{c.total}</td>
                <td>{c.failed}</td>
                <td>{Math.round(c.score)} %</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <h2>
        Notifications{' '}
        {notes.data && (
          <span className="badge" data-testid="unread-count">
            {notes.data.unread_count} unread
          </span>
        )}
      </h2>
      {notes.isError && <ErrorView error={notes.error} onRetry={() => void notes.refetch()} />}
      {notes.data && (
        <ul>
          {notes.data.items.map((n) => (
            <li key={n.id}>
              {n.read ? '' : <strong>New: </strong>}
              {new Date(n.timestamp).toLocaleString()} — {n.message}{' '}
              {n.job_id && <Link to={`/jobs/${encodeURIComponent(n.job_id)}`}>job {n.job_id}</Link>}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function JobLinks({ jobs }: { jobs: { job_id: string; job_type: string; status: string }[] }) {
  return (
    <ul>
      {jobs.map((j) => (
        <li key={j.job_id}>
          <Link to={`/jobs/${encodeURIComponent(j.job_id)}`}>{j.job_id}</Link> ({j.job_type}){' '}
          <StatusText status={j.status} />
        </li>
      ))}
    </ul>
  );
}
