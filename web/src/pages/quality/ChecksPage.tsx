import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createColumnHelper } from '@tanstack/react-table';
import { useEffect, useMemo, useState } from 'react';
import { unwrap } from '../../api/errors';
import type { components } from '../../api/schema';
import { useConsole } from '../../shell/context';
import { ErrorView } from '../../shell/ErrorView';
import { useCan } from '../../shell/roles';
import { uiState } from '../../state/ui-state';
import { ConfirmButton } from '../jobs/ConfirmButton';
import { CheckForm } from './CheckForm';
import { QualityNav, Status } from './status';
import { Pager, VirtualTable } from './VirtualTable';

type Check = components['schemas']['DqxCheck'];
const col = createColumnHelper<Check>();
const NONE: Check[] = [];
const PAGE = 500;

/** /quality/checks: the checks (of one table or all), enable/disable, delete, and a new check's form. */
export function ChecksPage() {
  const { api } = useConsole();
  const client = useQueryClient();
  const [filters, setFilters] = useState(
    () => uiState.load<{ table: string; text: string }>('quality.checks') ?? { table: '', text: '' },
  );
  useEffect(() => uiState.save('quality.checks', filters), [filters]);
  const table = filters.table.trim();
  const [page, setPage] = useState(0);
  const fns = useQuery({
    queryKey: ['dq-check-functions'],
    queryFn: () => unwrap(api.client.GET('/api/governance/dqx/check-functions')),
    staleTime: 300_000,
  });
  const checks = useQuery({
    queryKey: ['dq-checks', table, page],
    queryFn: () =>
      unwrap(
        api.client.GET('/api/governance/dqx/checks', {
          params: {
            query: { limit: PAGE, offset: page * PAGE, ...(table.length >= 5 ? { table_fqn: table } : {}) },
          },
        }),
      ),
  });
  const canToggle = useCan('post /api/governance/dqx/checks/{id}/toggle');
  const canDelete = useCan('delete /api/governance/dqx/checks/{id}');
  const refresh = () => void client.invalidateQueries({ queryKey: ['dq-checks'] });
  const toggle = useMutation({
    mutationFn: (c: Check) =>
      unwrap(
        api.client.POST('/api/governance/dqx/checks/{id}/toggle', {
          params: { path: { id: c.id } },
          body: { enabled: !c.enabled },
        }),
      ),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: (c: Check) =>
      unwrap(api.client.DELETE('/api/governance/dqx/checks/{id}', { params: { path: { id: c.id } } })),
    onSuccess: refresh,
  });
  const columns = useMemo(
    () => [
      col.accessor('name', { header: 'Check' }),
      col.accessor('table_fqn', { header: 'Table' }),
      col.accessor('check_function', { header: 'Function' }),
      col.accessor((c) => JSON.stringify(c.arguments), { id: 'arguments', header: 'Arguments' }),
      col.accessor('criticality', { header: 'Criticality' }),
      col.accessor((c) => (c.enabled ? 'enabled' : 'disabled'), {
        id: 'enabled',
        header: 'State',
        cell: (c) => <Status value={c.getValue()} />,
      }),
      col.display({
        id: 'actions',
        header: 'Actions',
        cell: (c) => (
          <div className="row-actions">
            <button
              type="button"
              disabled={!canToggle.allowed}
              title={canToggle.reason || undefined}
              onClick={() => toggle.mutate(c.row.original)}
            >
              {c.row.original.enabled ? 'Disable' : 'Enable'} {c.row.original.name}
            </button>
            <ConfirmButton
              label={`Delete ${c.row.original.name}`}
              question={`Delete the check ${c.row.original.name} of ${c.row.original.table_fqn}? Its audit entries stay.`}
              confirmLabel="Delete the check"
              can={canDelete}
              onConfirm={() => remove.mutate(c.row.original)}
            />
          </div>
        ),
      }),
    ],
    [toggle, remove, canToggle, canDelete],
  );
  const failed = toggle.error ?? remove.error;
  return (
    <section aria-labelledby="checks-title">
      <h1 id="checks-title">Data-quality checks</h1>
      <QualityNav />
      {fns.isError && <ErrorView error={fns.error} onRetry={() => void fns.refetch()} />}
      {fns.data && <CheckForm functions={fns.data} />}
      <h2>Checks</h2>
      <div className="row-actions">
        <label className="field">
          Table (catalog.schema.table; empty: all)
          <input
            value={filters.table}
            onChange={(e) => {
              setPage(0);
              setFilters((f) => ({ ...f, table: e.target.value }));
            }}
          />
        </label>
        <label className="field">
          Search these checks
          <input value={filters.text} onChange={(e) => setFilters((f) => ({ ...f, text: e.target.value }))} />
        </label>
      </div>
      {failed && <ErrorView error={failed} requiredRole="editor" />}
      {checks.isError && <ErrorView error={checks.error} onRetry={() => void checks.refetch()} />}
      {checks.isPending && <p role="status">Loading checks…</p>}
      {checks.data && (
        <>
          <p aria-live="polite">
            {checks.data.length} check{checks.data.length === 1 ? '' : 's'}
            {table ? ` on ${table}` : ''}
          </p>
          <VirtualTable
            rows={checks.data ?? NONE}
            columns={columns}
            caption="Data-quality checks"
            filter={filters.text}
            testId="dq-checks"
            rowTestId="dq-check-row"
            rowKey={(c) => c.id}
          />
          <Pager page={page} size={PAGE} shown={checks.data.length} onPage={setPage} />
        </>
      )}
    </section>
  );
}
