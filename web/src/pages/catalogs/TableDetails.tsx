import { useQuery } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef } from 'react';
import { unwrap } from '../../api/errors';
import { useConsole } from '../../shell/context';
import { ErrorView } from '../../shell/ErrorView';

const NO_COLUMNS: never[] = [];

/** One table from GET /api/tables/{full_name}: details, columns (virtualised: tables of thousands), history. */
export function TableDetails({ fullName }: { fullName: string }) {
  const { api } = useConsole();
  const q = useQuery({
    queryKey: ['table', fullName],
    queryFn: () => unwrap(api.client.GET('/api/tables/{full_name}', { params: { path: { full_name: fullName } } })),
  });
  const scrollRef = useRef<HTMLDivElement>(null);
  const columns = q.data?.columns ?? NO_COLUMNS;
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
  if (q.isError) return <ErrorView error={q.error} onRetry={() => void q.refetch()} />;
  if (!q.data) return <p role="status">Loading {fullName}…</p>;
  const t = q.data;
  return (
    <article aria-labelledby="table-title" style={{ flex: 1, minWidth: '20rem' }}>
      <h2 id="table-title">{t.full_name}</h2>
      <dl className="cards" data-testid="table-details">
        <div className="card">
          <dt>Type</dt>
          <dd>{t.table_type}</dd>
        </div>
        <div className="card">
          <dt>Format</dt>
          <dd>{t.format ?? 'not reported'}</dd>
        </div>
        <div className="card">
          <dt>Owner</dt>
          <dd>{t.owner ?? 'not reported'}</dd>
        </div>
        <div className="card">
          <dt>Size</dt>
          <dd>{t.size_bytes === null ? 'not reported' : `${t.size_bytes} bytes in ${t.num_files ?? '?'} files`}</dd>
        </div>
      </dl>
      {t.comment && <p>{t.comment}</p>}
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
      <h3>History</h3>
      {t.history.length === 0 ? (
        <p>No history (a view, or history not kept).</p>
      ) : (
        <table>
          <thead>
            <tr>
              <th scope="col">Version</th>
              <th scope="col">When</th>
              <th scope="col">Operation</th>
              <th scope="col">User</th>
            </tr>
          </thead>
          <tbody>
            {t.history.map((h) => (
              <tr key={h.version}>
                <td>{h.version}</td>
                <td>{new Date(h.timestamp).toLocaleString()}</td>
                <td>{h.operation}</td>
                <td>{h.user_name ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </article>
  );
}
