import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createColumnHelper } from '@tanstack/react-table';
import { useEffect, useMemo, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { unwrap } from '../../api/errors';
import type { components } from '../../api/schema';
import { useConsole } from '../../shell/context';
import { ErrorView, FieldErrorSummary } from '../../shell/ErrorView';
import { uiState } from '../../state/ui-state';
import { createRequestValidator } from '../clone/validate';
import { ActionButton, Field, requestSchemaOf, useFieldErrors } from './form';
import { PassRate, QualityNav } from './status';
import { Pager, VirtualTable } from './VirtualTable';

type Run = components['schemas']['DqxRunResult'];
const col = createColumnHelper<Run>();
const columns = [
  col.accessor('executed_at', {
    header: 'Run',
    cell: (c) => (
      <Link to={`/quality/runs/${encodeURIComponent(c.row.original.run_id)}`}>
        {new Date(c.getValue()).toLocaleString()}
      </Link>
    ),
  }),
  col.accessor('table_fqn', { header: 'Table' }),
  col.accessor('pass_rate', {
    header: 'Result',
    cell: (c) => <PassRate rate={c.getValue()} status={c.row.original.status} />,
  }),
  col.accessor('total_rows', { header: 'Rows' }),
  col.accessor('invalid_rows', { header: 'Invalid' }),
  col.accessor('warning_rows', { header: 'Warnings' }),
  col.accessor('checks_applied', { header: 'Checks' }),
  col.accessor('executed_by', { header: 'By' }),
];

/** /quality/runs: run a table's enabled checks (or a scope), and the stored runs, newest first. */
export function RunsPage() {
  const { api, doc } = useConsole();
  const client = useQueryClient();
  const navigate = useNavigate();
  const [table, setTable] = useState(() => uiState.load<string>('quality.runs.table') ?? '');
  useEffect(() => uiState.save('quality.runs.table', table), [table]);
  const errors = useFieldErrors();
  const [page, setPage] = useState(0);
  const schema = requestSchemaOf(doc, '/api/governance/dqx/run');
  const validate = useMemo(() => (schema ? createRequestValidator(doc, schema) : null), [doc, schema]);
  const filter = table.trim().split('.').length === 3 && !table.includes('.all') ? table.trim() : '';
  const runs = useQuery({
    queryKey: ['dq-runs', filter, page],
    queryFn: () =>
      unwrap(
        api.client.GET('/api/governance/dqx/runs', {
          params: { query: { limit: 200, offset: page * 200, ...(filter ? { table_fqn: filter } : {}) } },
        }),
      ),
    refetchInterval: 10_000,
  });
  const run = useMutation({
    mutationFn: (table_fqn: string) =>
      unwrap(api.client.POST('/api/governance/dqx/run', { body: { table_fqn, wait_seconds: 120 } })),
    onSuccess: (r) => {
      void client.invalidateQueries({ queryKey: ['dq-runs'] });
      void client.invalidateQueries({ queryKey: ['dq-dashboard'] });
      if ('table_fqn' in r) void navigate(`/quality/runs/${encodeURIComponent(r.run_id)}`);
    },
    onError: (err) => errors.fromError(err),
  });
  const submit = () => {
    const body = { table_fqn: table.trim() };
    const problems = validate?.(body) ?? [];
    if (problems.length) return errors.show(problems);
    errors.clear();
    run.mutate(body.table_fqn);
  };
  const outcome = run.data;
  return (
    <section aria-labelledby="runs-title">
      <h1 id="runs-title">Data-quality runs</h1>
      <QualityNav />
      <form
        noValidate
        aria-labelledby="run-form-title"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <h2 id="run-form-title">Run checks</h2>
        <FieldErrorSummary details={errors.errors} labelOf={() => 'Table'} />
        {run.isError && !errors.errors.length && <ErrorView error={run.error} requiredRole="editor" onRetry={submit} />}
        <Field
          name="table_fqn"
          label="Table or scope"
          errors={errors}
          hint="catalog.schema.table, catalog.schema.all, catalog.all or all"
        >
          {(p) => (
            <input
              {...p}
              value={table}
              onChange={(e) => {
                setPage(0);
                setTable(e.target.value);
              }}
            />
          )}
        </Field>
        <ActionButton type="submit" operation="post /api/governance/dqx/run" disabled={run.isPending}>
          {run.isPending ? 'Running…' : 'Run the enabled checks'}
        </ActionButton>
      </form>
      {outcome && !('table_fqn' in outcome) && (
        <div role="status" data-testid="run-outcome">
          {'tables_checked' in outcome ? (
            <p>
              {outcome.scope}: {outcome.tables_checked} tables checked, {outcome.passed} passed, {outcome.failed} failed
              (job <Link to={`/jobs/${encodeURIComponent(outcome.job_id)}`}>{outcome.job_id}</Link>)
            </p>
          ) : (
            <p>
              {outcome.message} (job <Link to={`/jobs/${encodeURIComponent(outcome.job_id)}`}>{outcome.job_id}</Link>)
            </p>
          )}
        </div>
      )}
      <h2>Runs{filter ? ` of ${filter}` : ''}</h2>
      {runs.isError && <ErrorView error={runs.error} onRetry={() => void runs.refetch()} />}
      {runs.isPending && <p role="status">Loading runs…</p>}
      {runs.data && (
        <VirtualTable
          rows={runs.data}
          columns={columns}
          caption="Data-quality runs, newest first"
          testId="dq-runs"
          rowTestId="dq-run-row"
          rowKey={(r) => r.run_id}
        />
      )}
      {runs.data && <Pager page={page} size={200} shown={runs.data.length} onPage={setPage} />}
    </section>
  );
}
