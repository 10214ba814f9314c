import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { unwrap } from '../../api/errors';
import { useConsole } from '../../shell/context';
import { ErrorView } from '../../shell/ErrorView';
import { StatusWord } from '../compare/ui';

const STATUSES = ['open', 'applying', 'applied', 'dismissed', 'snoozed', 'resolved', 'all'] as const;
type Status = (typeof STATUSES)[number];
const usd = (v: number | null) => (v === null ? 'not estimated' : `$${v.toFixed(2)} / month`);

/** Cost recommendations by status, highest saving first: refresh the analysers, dry-run an apply, dismiss, snooze. */
export function Recommendations() {
  const { api } = useConsole();
  const qc = useQueryClient();
  const [status, setStatus] = useState<Status>('open');
  const [message, setMessage] = useState('');
  const list = useQuery({
    queryKey: ['recommendations', status],
    queryFn: () => unwrap(api.client.GET('/api/finops/recommendations', { params: { query: { status } } })),
  });
  const done = () => qc.invalidateQueries({ queryKey: ['recommendations'] });
  const refresh = useMutation({
    mutationFn: () => unwrap(api.client.POST('/api/finops/recommendations/refresh', { body: { wait: true } })),
    onSuccess: (r) => setMessage(`Analysers ran (job ${r.job_id}): ${r.message}`),
    onSettled: done,
  });
  const act = useMutation({
    mutationFn: async ({ id, action }: { id: string; action: 'plan' | 'dismiss' | 'snooze' }) => {
      const params = { path: { id } };
      if (action === 'plan') {
        const r = await unwrap(
          api.client.POST('/api/finops/recommendations/{id}/apply', { params, body: { dry_run: true } }),
        );
        return 'would_run' in r ? `Would run (${r.kind}): ${r.would_run}` : `Job ${r.job_id}: ${r.message}`;
      }
      if (action === 'dismiss') {
        const r = await unwrap(
          api.client.POST('/api/finops/recommendations/{id}/dismiss', { params, body: { days: 30 } }),
        );
        return `${r.title}: dismissed until ${new Date(r.suppressed_until ?? '').toLocaleDateString()}`;
      }
      const r = await unwrap(api.client.POST('/api/finops/recommendations/{id}/snooze', { params, body: { days: 7 } }));
      return `${r.title}: snoozed until ${new Date(r.suppressed_until ?? '').toLocaleDateString()}`;
    },
    onSuccess: (m) => setMessage(m),
    onSettled: done,
  });
  return (
    <section aria-labelledby="recs-title">
      <h2 id="recs-title">Recommendations</h2>
      <div className="row-actions">
        <label className="field">
          Status
          <select value={status} onChange={(e) => setStatus(e.target.value as Status)}>
            {STATUSES.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </label>
        <button type="button" disabled={refresh.isPending} onClick={() => refresh.mutate()}>
          {refresh.isPending ? 'Running the analysers…' : 'Run the analysers now'}
        </button>
      </div>
      <p role="status" data-testid="recs-message">
        {message}
      </p>
      {refresh.isError && <ErrorView error={refresh.error} />}
      {act.isError && <ErrorView error={act.error} />}
      {list.isError && <ErrorView error={list.error} onRetry={() => void list.refetch()} />}
      {list.data && (
        <>
          <p>
            {list.data.recommendations.length} recommendation{list.data.recommendations.length === 1 ? '' : 's'},
            estimated saving {usd(list.data.total_savings_usd_month)}
          </p>
          {list.data.recommendations.length > 0 && (
            <table data-testid="recs-table">
              <thead>
                <tr>
                  <th scope="col">Recommendation</th>
                  <th scope="col">Subject</th>
                  <th scope="col">Saving</th>
                  <th scope="col">Confidence / effort</th>
                  <th scope="col">Status</th>
                  <th scope="col">Evidence</th>
                  <th scope="col">Actions</th>
                </tr>
              </thead>
              <tbody>
                {list.data.recommendations.map((r) => (
                  <tr key={r.id} data-testid="rec-row">
                    <td>
                      {r.title}
                      <br />
                      <span className="marker">{r.benefit}</span>
                    </td>
                    <td>{r.subject}</td>
                    <td>{usd(r.estimated_savings_usd_month)}</td>
                    <td>
                      {r.confidence} / {r.effort}
                    </td>
                    <td>
                      <StatusWord status={r.status} />
                      {r.apply_job_id && (
                        <>
                          {' '}
                          <Link to={`/jobs/${encodeURIComponent(r.apply_job_id)}`}>job</Link>
                        </>
                      )}
                    </td>
                    <td>
                      <ul>
                        {r.evidence.map((e, i) => (
                          <li key={i}>
                            {e.fact}
                            {e.value !== undefined
                              ? `: ${typeof e.value === 'object' ? JSON.stringify(e.value) : String(e.value)}`
                              : ''}
                          </li>
                        ))}
                      </ul>
                    </td>
                    <td>
                      {r.status === 'open' && (
                        <div className="row-actions">
                          {r.effort === 'one-click' && (
                            <button type="button" onClick={() => act.mutate({ id: r.id, action: 'plan' })}>
                              Plan applying {r.title}
                            </button>
                          )}
                          <button type="button" onClick={() => act.mutate({ id: r.id, action: 'snooze' })}>
                            Snooze 7 days
                          </button>
                          <button type="button" onClick={() => act.mutate({ id: r.id, action: 'dismiss' })}>
                            Dismiss 30 days
                          </button>
                        </div>
                      )}
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
