import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef } from 'react';
import type { components } from '../../api/schema';

type Column = components['schemas']['TableColumn'];

/** Columns tab: every column, virtualised (tables of thousands of columns paint only what is visible). */
export function ColumnsTab({ columns }: { columns: readonly Column[] }) {
  const scrollRef = useRef<HTMLDivElement>(null);
  // eslint-disable-next-line react-hooks/incompatible-library -- TanStack Virtual's hook is used as documented
  const virtual = useVirtualizer({
    count: columns.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 33,
    overscan: 12,
  });
  const items = virtual.getVirtualItems();
  const padTop = items[0]?.start ?? 0;
  const padBottom = items.length ? virtual.getTotalSize() - items[items.length - 1].end : 0;
  return (
    <>
      <h3>Columns ({columns.length})</h3>
      <div className="scroll" ref={scrollRef} tabIndex={0} role="region" aria-label="Columns">
        <table data-testid="table-columns">
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">Name</th>
              <th scope="col">Type</th>
              <th scope="col">Nullable</th>
              <th scope="col">Comment</th>
            </tr>
          </thead>
          <tbody>
            {padTop > 0 && (
              <tr aria-hidden="true">
                <td colSpan={5} style={{ height: padTop, padding: 0 }} />
              </tr>
            )}
            {items.map((vi) => {
              const c = columns[vi.index];
              return (
                <tr key={c.name}>
                  <td>{c.position}</td>
                  <td>
                    {c.name}
                    {c.partition ? ' (partition)' : ''}
                  </td>
                  <td>{c.type}</td>
                  <td>{c.nullable ? 'yes' : 'no'}</td>
                  <td>{c.comment ?? ''}</td>
                </tr>
              );
            })}
            {padBottom > 0 && (
              <tr aria-hidden="true">
                <td colSpan={5} style={{ height: padBottom, padding: 0 }} />
              </tr>
            )}
          </tbody>
        </table>
      </div>
    </>
  );
}
