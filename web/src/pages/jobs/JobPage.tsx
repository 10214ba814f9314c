import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useParams } from 'react-router';
import { unwrap } from '../../api/errors';
import { useConsole } from '../../shell/context';
import { ErrorView } from '../../shell/ErrorView';
import { ConfirmButton } from './ConfirmButton';
import { useCan } from '../../shell/roles';
import { formatEta } from './job-events';
import { StatusText } from './status';
import { useJobSocket } from './useJobSocket';

const FINAL = ['completed', 'failed', 'cancelled', 'aborted'];
const CLONE_TYPES = ['clone', 'clone_fanout'];

/** /jobs/:jobId — any job type: live progress over the WebSocket (reconnect, then polling), log, result, actions. */
export function JobPage() {
  const { jobId = '' } = useParams();
  const { api, config } = useConsole();
  const queryClient = useQueryClient();
  const { live, mode } = useJobSocket(config.api_url, jobId);
  const job = useQuery({
    queryKey: ['job', jobId],
    queryFn: () => unwrap(api.client.GET('/api/jobs/{jobId}', { params: { path: { jobId } } })),
    refetchInterval: (q) => (mode === 'polling' && !FINAL.includes(q.state.data?.status ?? '') ? 2_000 : false),
  });
  const isClone = CLONE_TYPES.includes(job.data?.job_type ?? '');
  const cloneRecord = useQuery({
    queryKey: ['clone-record', jobId, live.final],
    enabled: isClone,
    queryFn: () => unwrap(api.client.GET('/api/clone/{jobId}', { params: { path: { jobId } } })),
  });
  // The recorded end arrives as the final event: read the record again for its final counts and result.
  useEffect(() => {
    if (live.final) void queryClient.invalidateQueries({ queryKey: ['job', jobId] });
  }, [live.final, jobId, queryClient]);
  const cancel = useMutation({
    mutationFn: () => unwrap(api.client.POST('/api/jobs/{jobId}/cancel', { params: { path: { jobId } } })),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['job', jobId] }),
  });
  const canCancel = useCan('post /api/jobs/{jobId}/cancel');
  const canRollback = useCan('post /api/rollback');
  const rollback = useMutation({
    mutationFn: () => unwrap(api.client.POST('/api/rollback', { body: { job_id: jobId, wait: false } })),
  });

  const recordStatus = job.data?.status;
  // The recorded status once it is final (read again after the final event), else the live one.
  const status = recordStatus && FINAL.includes(recordStatus) ? recordStatus : (live.status ?? recordStatus);
  const running = status !== undefined && status !== null && !FINAL.includes(status);
  const p = job.data?.progress;
  const tables =
    live.final || !live.progress
      ? p
        ? { completed: p.completed, failed: p.tables_failed, skipped: p.tables_skipped, total: p.total }
        : null
      : live.progress.tables;
  const schemas =
    live.final || !live.progress
      ? (p?.schemas ?? null)
      : `${live.progress.schemas.completed}/${live.progress.schemas.total}`;
  const eta = live.final || !live.progress ? p?.eta_seconds : live.progress.eta_seconds;
  const temporalUrl = `${config.temporal_ui_url}/namespaces/${encodeURIComponent(config.namespace)}/workflows/${encodeURIComponent(jobId)}`;

  return (
    <section aria-labelledby="job-title">
      <h1 id="job-title">Job {jobId}</h1>
      {job.isError && <ErrorView error={job.error} onRetry={() => void job.refetch()} />}
      {job.data && (
        <>
          <p>
            {job.data.job_type} — status{' '}
            <strong data-testid="job-status">{status ? <StatusText status={status} /> : 'unknown'}</strong>{' '}
            <span className="marker" data-testid="socket-mode">
              ({mode === 'live' ? 'live' : mode === 'polling' ? 'live updates lost: polling every 2 s' : mode})
            </span>
          </p>
          <div className="cards" aria-label="Progress">
            <div className="card">
              Schemas <strong data-testid="progress-schemas">{schemas ?? 'not planned yet'}</strong>
            </div>
            <div className="card">
              Tables{' '}
              <strong data-testid="progress-tables">
                {tables ? `${tables.completed}/${tables.total}` : 'not planned yet'}
              </strong>
            </div>
            <div className="card">
              Failed <strong data-testid="progress-failed">{tables ? tables.failed : 'not known'}</strong>
            </div>
            <div className="card">
              Skipped <strong data-testid="progress-skipped">{tables ? tables.skipped : 'not known'}</strong>
            </div>
            <div className="card">ETA {running ? formatEta(eta) : 'ended'}</div>
          </div>
          {job.data.error && <p className="error-box">Error: {job.data.error}</p>}
          <div className="row-actions">
            <ConfirmButton
              label="Cancel job"
              question={`Cancel job ${jobId}? A running job stops after its current step.`}
              confirmLabel="Cancel the job"
              disabled={!running || cancel.isPending}
              can={canCancel}
              onConfirm={() => cancel.mutate()}
            />
            {isClone && (
              <ConfirmButton
                label="Roll back"
                question={`Roll back job ${jobId}? Restores recorded table versions and drops the objects it created.`}
                confirmLabel="Roll back"
                disabled={running || rollback.isPending}
                can={canRollback}
                onConfirm={() => rollback.mutate()}
              />
            )}
            <a href={temporalUrl} target="_blank" rel="noreferrer" data-testid="temporal-link">
              Open in Temporal
            </a>
          </div>
          {cancel.isError && <ErrorView error={cancel.error} requiredRole={canCancel.need ?? undefined} />}
          {cancel.data && <p role="status">{cancel.data.message}</p>}
          {rollback.isError && <ErrorView error={rollback.error} requiredRole={canRollback.need ?? 'admin'} />}
          {rollback.isSuccess && <p role="status">Rollback started.</p>}
          <h2>Run log</h2>
          <pre data-testid="run-log" tabIndex={0} aria-label="Run log">
            {(live.events.length
              ? live.events.map((e) => `${e.ts} ${e.level.toUpperCase()} ${e.message}`)
              : job.data.logs
            ).join('\n')}
          </pre>
          <h2>Result</h2>
          <pre tabIndex={0} aria-label="Result" data-testid="job-result">
            {job.data.result === null || job.data.result === undefined
              ? 'No result yet'
              : JSON.stringify(job.data.result, null, 2)}
          </pre>
          {isClone && (
            <>
              <h2>Request</h2>
              {cloneRecord.isError && (
                <ErrorView error={cloneRecord.error} onRetry={() => void cloneRecord.refetch()} />
              )}
              <pre tabIndex={0} aria-label="Request">
                {cloneRecord.data ? JSON.stringify(cloneRecord.data.request, null, 2) : 'Loading…'}
              </pre>
            </>
          )}
        </>
      )}
      {job.isPending && <p>Loading job…</p>}
    </section>
  );
}
