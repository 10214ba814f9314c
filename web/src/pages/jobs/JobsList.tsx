import { useQuery } from '@tanstack/react-query';
import {
  createColumnHelper,
  flexRender,
  getCoreRowModel,
  getFilteredRowModel,
  getSortedRowModel,
  useReactTable,
  type SortingState,
} from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import type { components } from '../../api/schema';
import { useConsole } from '../../shell/context';
import { ErrorView } from '../../shell/ErrorView';
import { uiState } from '../../state/ui-state';
import {
  initialJobsFilters,
  JOB_STATUSES as STATUSES,
  JOBS_PAGE as PAGE,
  jobsListQuery,
  type JobsFilters as Filters,
  type JobStatus as Status,
} from './jobsQuery';
import { StatusText } from './status';

type Job = components['schemas']['JobListItem'];
const NO_JOBS: Job[] = [];

const col = createColumnHelper<Job>();
const str = (v: unknown) => (typeof v === 'string' ? v : '');
const columns = [
  col.accessor('job_id', {
    header: 'Job',
    cell: (c) => <Link to={`/jobs/${encodeURIComponent(c.getValue())}`}>{c.getValue()}</Link>,
  }),
  col.accessor('job_type', { header: 'Type' }),
  col.accessor('status', { header: 'Status', cell: (c) => <StatusText status={c.getValue()} /> }),
  col.accessor((j) => str(j.source_catalog ?? j.source), { id: 'source', header: 'Source' }),
  col.accessor((j) => str(j.destination_catalog ?? j.destination), { id: 'destination', header: 'Destination' }),
  col.accessor((j) => `${j.progress.completed}/${j.progress.total}`, { id: 'progress', header: 'Progress' }),
  col.accessor('created_at', { header: 'Created', cell: (c) => new Date(c.getValue()).toLocaleString() }),
];

/** /jobs: every job type, filtered by type and status on the server, sorted and searched here, virtualised. */
export function JobsList() {
  const { api } = useConsole();
  const [filters, setFilters] = useState<Filters>(initialJobsFilters);
  useEffect(() => uiState.save('jobs.filters', filters), [filters]);
  const [sorting, setSorting] = useState<SortingState>([]);
  // The call may already be in flight: a navigation here starts it before the page renders (pages/prefetch.ts).
  const q = useQuery({ ...jobsListQuery(api, filters), refetchInterval: 5_000 });
  // eslint-disable-next-line react-hooks/incompatible-library -- TanStack Table's hook is used as documented
  const table = useReactTable({
    data: q.data ?? NO_JOBS,
    columns,
    state: { sorting, globalFilter: filters.text },
    onSortingChange: setSorting,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
    getFilteredRowModel: getFilteredRowModel(),
  });
  const rows = table.getRowModel().rows;
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtual = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 33,
    overscan: 12,
  });
  const items = virtual.getVirtualItems();
  const padTop = items[0]?.start ?? 0;
  const padBottom = items.length ? virtual.getTotalSize() - items[items.length - 1].end : 0;
  const set = (patch: Partial<Filters>) => setFilters((f) => ({ ...f, page: 0, ...patch }));

  return (
    <section aria-labelledby="jobs-title">
      <h1 id="jobs-title">Jobs</h1>
      <div className="row-actions">
        <label className="field">
          Type
          <input value={filters.type} placeholder="any (e.g. clone)" onChange={(e) => set({ type: e.target.value })} />
        </label>
        <label className="field">
          Status
          <select value={filters.status} onChange={(e) => set({ status: e.target.value as Status | '' })}>
            <option value="">any</option>
            {STATUSES.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </label>
        <label className="field">
          Search this page
          <input value={filters.text} onChange={(e) => setFilters((f) => ({ ...f, text: e.target.value }))} />
        </label>
      </div>
      {q.isError && <ErrorView error={q.error} onRetry={() => void q.refetch()} />}
      {q.isPending && <p>Loading jobs…</p>}
      {q.data && (
        <>
          <p aria-live="polite">
            {rows.length} job{rows.length === 1 ? '' : 's'} shown (page {filters.page + 1})
          </p>
          <div className="scroll" ref={scrollRef} data-testid="jobs-scroll">
            <table>
              <caption className="skip-link">Jobs, newest first</caption>
              <thead>
                {table.getHeaderGroups().map((hg) => (
                  <tr key={hg.id}>
                    {hg.headers.map((h) => {
                      const dir = h.column.getIsSorted();
                      return (
                        <th key={h.id} aria-sort={dir === 'asc' ? 'ascending' : dir === 'desc' ? 'descending' : 'none'}>
                          <button type="button" onClick={h.column.getToggleSortingHandler()}>
                            {flexRender(h.column.columnDef.header, h.getContext())}
                            {dir === 'asc' ? ' ▲' : dir === 'desc' ? ' ▼' : ''}
                          </button>
                        </th>
                      );
                    })}
                  </tr>
                ))}
              </thead>
              <tbody>
                {padTop > 0 && (
                  <tr aria-hidden="true">
                    <td colSpan={columns.length} style={{ height: padTop, padding: 0 }} />
                  </tr>
                )}
                {items.map((vi) => {
                  const row = rows[vi.index];
                  return (
                    <tr key={row.id} data-testid="job-row">
                      {row.getVisibleCells().map((cell) => (
                        <td key={cell.id}>{flexRender(cell.column.columnDef.cell, cell.getContext())}</td>
                      ))}
                    </tr>
                  );
                })}
                {padBottom > 0 && (
                  <tr aria-hidden="true">
                    <td colSpan={columns.length} style={{ height: padBottom, padding: 0 }} />
                  </tr>
                )}
              </tbody>
            </table>
          </div>
          <div className="row-actions">
            <button
              type="button"
              disabled={filters.page === 0}
              onClick={() => setFilters((f) => ({ ...f, page: f.page - 1 }))}
            >
              Previous page
            </button>
            <button
              type="button"
              disabled={(q.data?.length ?? 0) < PAGE}
              onClick={() => setFilters((f) => ({ ...f, page: f.page + 1 }))}
            >
              Next page
            </button>
          </div>
        </>
      )}
    </section>
  );
}
