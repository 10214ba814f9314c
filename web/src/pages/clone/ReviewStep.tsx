import { useMutation, useQuery } from '@tanstack/react-query';
import { format } from 'sql-formatter';
import { unwrap } from '../../api/errors';
import { useConsole } from '../../shell/context';
import { ErrorView } from '../../shell/ErrorView';
import { RoleNote, useCan } from '../../shell/roles';
import { plannedStatements } from './plan';

const FINAL = ['completed', 'failed', 'cancelled', 'aborted'];

/** The request as it will be sent, the estimate, and a dry-run preview of the planned statements. */
export function ReviewStep({ body }: { body: Record<string, unknown> }) {
  const { api } = useConsole();
  const canClone = useCan('post /api/clone');
  const source = String(body.source_catalog ?? '');
  const destination = String(body.destination_catalog ?? '');
  const estimate = useQuery({
    queryKey: ['estimate', source, destination, body.include_schemas],
    enabled: Boolean(source),
    queryFn: () =>
      unwrap(
        api.client.POST('/api/estimate', {
          body: {
            source_catalog: source,
            ...(destination ? { destination_catalog: destination } : {}),
            ...(Array.isArray(body.include_schemas) ? { include_schemas: body.include_schemas as string[] } : {}),
          },
        }),
      ),
  });
  const dryRun = useMutation({
    mutationFn: () => unwrap(api.client.POST('/api/clone', { body: { ...body, dry_run: true } as never })),
  });
  const dryJobId = dryRun.data?.job_id;
  const dryJob = useQuery({
    queryKey: ['job', dryJobId],
    enabled: Boolean(dryJobId),
    queryFn: () => unwrap(api.client.GET('/api/jobs/{jobId}', { params: { path: { jobId: dryJobId! } } })),
    refetchInterval: (q) => (FINAL.includes(q.state.data?.status ?? '') ? false : 1_000),
  });
  const plan = dryJob.data && FINAL.includes(dryJob.data.status) ? plannedStatements(dryJob.data.result) : null;

  return (
    <>
      <h3>Request</h3>
      <pre tabIndex={0} aria-label="Request to send" data-testid="review-request">
        {JSON.stringify(body, null, 2)}
      </pre>
      <h3>Estimate</h3>
      {estimate.isError && <ErrorView error={estimate.error} onRetry={() => void estimate.refetch()} />}
      {estimate.isPending && source && <p>Estimating…</p>}
      {estimate.data && (
        <p data-testid="estimate">
          {estimate.data.total_tables} tables, {(estimate.data.total_bytes / 1e6).toFixed(1)} MB in{' '}
          {estimate.data.total_files} files; about {Math.ceil(estimate.data.estimated_seconds.DEEP)} s DEEP or{' '}
          {Math.ceil(estimate.data.estimated_seconds.SHALLOW)} s SHALLOW (throughput from{' '}
          {estimate.data.throughput.source === 'history' ? `${estimate.data.throughput.jobs} past jobs` : 'defaults'}).
        </p>
      )}
      <h3>Dry run</h3>
      <button
        type="button"
        onClick={() => dryRun.mutate()}
        disabled={dryRun.isPending || (dryJobId !== undefined && !plan && !dryJob.isError) || !canClone.allowed}
        aria-describedby={canClone.allowed ? undefined : 'dry-run-role-note'}
      >
        Preview the planned statements (dry run)
      </button>
      <RoleNote can={canClone} id="dry-run-role-note" />
      {dryRun.isError && <ErrorView error={dryRun.error} requiredRole={canClone.need ?? undefined} />}
      {dryJob.isError && <ErrorView error={dryJob.error} onRetry={() => void dryJob.refetch()} />}
      {dryJobId && !plan && (
        <p role="status">
          Dry run {dryJobId}: {dryJob.data?.status ?? 'queued'}…
        </p>
      )}
      {dryJob.data && plan && (
        <div data-testid="dry-run-plan">
          <p role="status">
            Dry run {dryJobId} {dryJob.data.status}: {plan.length} planned statement{plan.length === 1 ? '' : 's'}.
          </p>
          {dryJob.data.error && <p className="error-box">{dryJob.data.error}</p>}
          <pre tabIndex={0} aria-label="Planned statements">
            {plan.map((s) => safeFormat(s)).join(';\n\n')}
          </pre>
        </div>
      )}
    </>
  );
}

function safeFormat(sql: string): string {
  try {
    return format(sql, { language: 'spark' });
  } catch {
    return sql;
  }
}
