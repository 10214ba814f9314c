import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { unwrap } from '../../api/errors';
import type { components } from '../../api/schema';
import { useConsole } from '../../shell/context';
import { ErrorView } from '../../shell/ErrorView';
import { StatusWord } from '../compare/ui';
import { ScheduleForm } from './ScheduleForm';

type Schedule = components['schemas']['ScheduleView'];
const when = (t: string | null | undefined) => (t ? new Date(t).toLocaleString() : '—');

/** Paused / active in words (a Databricks job schedule reports its own status). */
function ScheduleState({ s }: { s: Schedule }) {
  if (s.paused === true) return <StatusWord status="paused">paused</StatusWord>;
  if (s.paused === false) return <StatusWord status="active">active</StatusWord>;
  return <StatusWord status={s.status}>{s.status}</StatusWord>;
}

/**
 * /schedules — clone schedules: next run times, last run, counts, pause / resume / run now, each schedule's runs,
 * a link to the schedule in the Temporal Web UI (its Temporal Schedule id is the schedule id), and a form to
 * create a schedule from scratch.
 */
export function SchedulesPage() {
  const { api, config } = useConsole();
  const qc = useQueryClient();
  const [open, setOpen] = useState<string | null>(null);
  const [message, setMessage] = useState('');
  const list = useQuery({
    queryKey: ['schedules'],
    queryFn: () => unwrap(api.client.GET('/api/schedule')),
    refetchInterval: 10_000,
  });
  const act = useMutation({
    mutationFn: ({ id, action }: { id: string; action: 'pause' | 'resume' | 'trigger' }) => {
      const params = { path: { scheduleId: id } };
      if (action === 'pause') return unwrap(api.client.POST('/api/schedule/{scheduleId}/pause', { params, body: {} }));
      if (action === 'resume')
        return unwrap(api.client.POST('/api/schedule/{scheduleId}/resume', { params, body: {} }));
      return unwrap(api.client.POST('/api/schedule/{scheduleId}/trigger', { params }));
    },
    onSuccess: (r) => setMessage(`${r.schedule_id}: ${r.message}`),
    onSettled: () => qc.invalidateQueries({ queryKey: ['schedules'] }),
  });
  const temporalUrl = (id: string) =>
    `${config.temporal_ui_url}/namespaces/${encodeURIComponent(config.namespace)}/schedules/${encodeURIComponent(id)}`;
  return (
    <section aria-labelledby="schedules-title">
      <h1 id="schedules-title">Schedules</h1>
      <p aria-live="polite" data-testid="schedule-message">
        {message}
      </p>
      {act.isError && <ErrorView error={act.error} />}
      {list.isError && <ErrorView error={list.error} onRetry={() => void list.refetch()} />}
      {list.isPending && <p role="status">Loading schedules…</p>}
      {list.data && list.data.length === 0 && <p>No clone schedules yet (create one below).</p>}
      {list.data && list.data.length > 0 && (
        <table data-testid="schedules-table">
          <caption>{list.data.length} clone schedules</caption>
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">State</th>
              <th scope="col">Source → destination</th>
              <th scope="col">Next runs</th>
              <th scope="col">Last run</th>
              <th scope="col">Clones / skipped / failed</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {list.data.map((s) => (
              <tr key={s.schedule_id} data-testid="schedule-row">
                <td>
                  {s.name}
                  <br />
                  <span className="marker">{s.schedule_id}</span>
                </td>
                <td>
                  <ScheduleState s={s} />
                  {s.note ? <span className="marker"> ({s.note})</span> : null}
                </td>
                <td>
                  {String(s.clone_options.source_catalog ?? '')} → {String(s.clone_options.destination_catalog ?? '')}
                </td>
                <td>
                  {s.next_run_times.length === 0 ? (
                    'none'
                  ) : (
                    <ul data-testid="next-runs">
                      {s.next_run_times.slice(0, 3).map((t) => (
                        <li key={t}>
                          <time dateTime={t}>{when(t)}</time>
                        </li>
                      ))}
                    </ul>
                  )}
                </td>
                <td>{when(s.last_run_at)}</td>
                <td>
                  {s.clones} / {s.skipped} / {s.failed}
                </td>
                <td>
                  <div className="row-actions">
                    {s.paused ? (
                      <button type="button" onClick={() => act.mutate({ id: s.schedule_id, action: 'resume' })}>
                        Resume {s.name}
                      </button>
                    ) : (
                      <button
                        type="button"
                        disabled={s.paused === null}
                        onClick={() => act.mutate({ id: s.schedule_id, action: 'pause' })}
                      >
                        Pause {s.name}
                      </button>
                    )}
                    <button type="button" onClick={() => act.mutate({ id: s.schedule_id, action: 'trigger' })}>
                      Run {s.name} now
                    </button>
                    <button
                      type="button"
                      aria-expanded={open === s.schedule_id}
                      onClick={() => setOpen(open === s.schedule_id ? null : s.schedule_id)}
                    >
                      Runs of {s.name}
                    </button>
                    {s.target === 'temporal' && config.temporal_ui_url && (
                      <a
                        href={temporalUrl(s.schedule_id)}
                        target="_blank"
                        rel="noreferrer"
                        data-testid="schedule-temporal-link"
                      >
                        {s.name} in Temporal
                      </a>
                    )}
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {open && <ScheduleRuns id={open} />}
      <ScheduleForm
        onCreated={(s) =>
          setMessage(
            `${s.schedule_id}: created (${s.paused ? 'paused' : 'active'}), next run ${when(s.next_run_times[0])}`,
          )
        }
      />
    </section>
  );
}

function ScheduleRuns({ id }: { id: string }) {
  const { api } = useConsole();
  const q = useQuery({
    queryKey: ['schedule-runs', id],
    queryFn: () => unwrap(api.client.GET('/api/schedule/{scheduleId}/runs', { params: { path: { scheduleId: id } } })),
    refetchInterval: 5_000,
  });
  return (
    <section aria-labelledby="schedule-runs-title">
      <h2 id="schedule-runs-title">Runs of {id}</h2>
      {q.isError && <ErrorView error={q.error} onRetry={() => void q.refetch()} />}
      {q.data && q.data.length === 0 && <p>No runs yet.</p>}
      {q.data && q.data.length > 0 && (
        <table data-testid="schedule-runs">
          <thead>
            <tr>
              <th scope="col">Scheduled</th>
              <th scope="col">Started</th>
              <th scope="col">Ended</th>
              <th scope="col">Outcome</th>
              <th scope="col">Clone job</th>
              <th scope="col">Reason</th>
            </tr>
          </thead>
          <tbody>
            {q.data.map((r) => (
              <tr key={r.run_id}>
                <td>{when(r.scheduled_at)}</td>
                <td>{when(r.started_at)}</td>
                <td>{when(r.ended_at)}</td>
                <td>
                  <StatusWord status={r.outcome} />
                </td>
                <td>{r.job_id ? <Link to={`/jobs/${encodeURIComponent(r.job_id)}`}>{r.job_id}</Link> : '—'}</td>
                <td>{r.reason ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
