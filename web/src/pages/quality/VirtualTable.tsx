import {
  flexRender,
  getCoreRowModel,
  getFilteredRowModel,
  getSortedRowModel,
  useReactTable,
  type ColumnDef,
  type SortingState,
} from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef, useState } from 'react';

/**
 * A sortable, searchable table whose rows are virtualised (only the visible ones are in the DOM), as the jobs list:
 * headers are buttons with aria-sort, `filter` searches every column.
 */
export function VirtualTable<T>(props: {
  rows: T[];
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- TanStack column value types vary per column
  columns: ColumnDef<T, any>[];
  caption: string;
  filter?: string;
  testId: string;
  rowTestId?: string;
  rowKey?: (row: T) => string;
}) {
  const [sorting, setSorting] = useState<SortingState>([]);
  // eslint-disable-next-line react-hooks/incompatible-library -- TanStack Table's hook is used as documented
  const table = useReactTable({
    data: props.rows,
    columns: props.columns,
    state: { sorting, globalFilter: props.filter ?? '' },
    onSortingChange: setSorting,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
    getFilteredRowModel: getFilteredRowModel(),
    ...(props.rowKey ? { getRowId: props.rowKey } : {}),
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
  const span = props.columns.length;
  return (
    <div
      className="scroll"
      ref={scrollRef}
      data-testid={props.testId}
      role="region"
      tabIndex={0}
      aria-label={props.caption}
    >
      <table>
        <caption className="skip-link">{props.caption}</caption>
        <thead>
          {table.getHeaderGroups().map((hg) => (
            <tr key={hg.id}>
              {hg.headers.map((h) => {
                const dir = h.column.getIsSorted();
                return (
                  <th key={h.id} aria-sort={dir === 'asc' ? 'ascending' : dir === 'desc' ? 'descending' : 'none'}>
                    {h.column.getCanSort() ? (
                      <button type="button" onClick={h.column.getToggleSortingHandler()}>
                        {flexRender(h.column.columnDef.header, h.getContext())}
                        {dir === 'asc' ? ' ▲' : dir === 'desc' ? ' ▼' : ''}
                      </button>
                    ) : (
                      flexRender(h.column.columnDef.header, h.getContext())
                    )}
                  </th>
                );
              })}
            </tr>
          ))}
        </thead>
        <tbody>
          {padTop > 0 && (
            <tr aria-hidden="true">
              <td colSpan={span} style={{ height: padTop, padding: 0 }} />
            </tr>
          )}
          {items.map((vi) => {
            const row = rows[vi.index];
            return (
              <tr key={row.id} data-testid={props.rowTestId}>
                {row.getVisibleCells().map((cell) => (
                  <td key={cell.id}>{flexRender(cell.column.columnDef.cell, cell.getContext())}</td>
                ))}
              </tr>
            );
          })}
          {padBottom > 0 && (
            <tr aria-hidden="true">
              <td colSpan={span} style={{ height: padBottom, padding: 0 }} />
            </tr>
          )}
          {rows.length === 0 && (
            <tr>
              <td colSpan={span}>Nothing to show.</td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}

/** Previous / next page of a server-paged list (`size` rows a page; a short page is the last). */
export function Pager(props: { page: number; size: number; shown: number; onPage: (page: number) => void }) {
  if (props.page === 0 && props.shown < props.size) return null;
  return (
    <div className="row-actions">
      <button type="button" disabled={props.page === 0} onClick={() => props.onPage(props.page - 1)}>
        Previous page
      </button>
      <span>Page {props.page + 1}</span>
      <button type="button" disabled={props.shown < props.size} onClick={() => props.onPage(props.page + 1)}>
        Next page
      </button>
    </div>
  );
}
