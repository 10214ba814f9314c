import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { unwrap } from '../../api/errors';
import { useConsole } from '../../shell/context';
import { ErrorView } from '../../shell/ErrorView';
import { uiState } from '../../state/ui-state';
import { SqlEditor } from './SqlEditor';

const FINAL = ['SUCCEEDED', 'FAILED', 'CANCELED', 'CLOSED'];

/** /workbench: the SQL editor, its result (first rows), and the server's history of the caller's last 30 statements. */
export function Workbench() {
  const { api } = useConsole();
  const queryClient = useQueryClient();
  const [text, setText] = useState(() => uiState.load<string>('workbench.editor') ?? 'SELECT 1');
  useEffect(() => uiState.save('workbench.editor', text), [text]);
  const [statementId, setStatementId] = useState<string | null>(null);
  const catalogs = useQuery({ queryKey: ['catalogs'], queryFn: () => unwrap(api.client.GET('/api/catalogs')) });
  const historyQ = useQuery({ queryKey: ['sql-history'], queryFn: () => unwrap(api.client.GET('/api/sql/history')) });
  const run = useMutation({
    mutationFn: (statement: string) =>
      unwrap(api.client.POST('/api/sql/statements', { body: { statement, wait_timeout: '10s' } as never })),
    onSuccess: (r) => setStatementId(r.statement_id),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['sql-history'] }),
  });
  const stmt = useQuery({
    queryKey: ['statement', statementId],
    enabled: Boolean(statementId),
    queryFn: () =>
      unwrap(api.client.GET('/api/sql/statements/{statementId}', { params: { path: { statementId: statementId! } } })),
    refetchInterval: (q) => (FINAL.includes(q.state.data?.status.state ?? '') ? false : 500),
  });
  const result = stmt.data;
  const columns = result?.manifest?.schema.columns ?? [];
  const rows = (result?.result?.data_array ?? []) as unknown[][];

  return (
    <section aria-labelledby="wb-title">
      <h1 id="wb-title">SQL workbench</h1>
      <p className="marker">
        Ctrl/Cmd+Enter runs, Ctrl/Cmd+Shift+Enter runs the selection, Ctrl+Space completes catalog names,
        Ctrl/Cmd+Shift+F formats.
      </p>
      {catalogs.data && (
        <SqlEditor
          value={text}
          catalogs={catalogs.data.catalogs.map((c) => c.name)}
          onChange={setText}
          onRun={(t) => run.mutate(t)}
        />
      )}
      {catalogs.isError && <ErrorView error={catalogs.error} onRetry={() => void catalogs.refetch()} />}
      <div className="row-actions">
        <button type="button" onClick={() => run.mutate(text)} disabled={run.isPending}>
          Run
        </button>
      </div>
      {run.isError && <ErrorView error={run.error} />}
      {stmt.isError && <ErrorView error={stmt.error} onRetry={() => void stmt.refetch()} />}
      {result && (
        <div data-testid="sql-result">
          <p role="status">
            {result.status.state}
            {result.status.error ? `: ${result.status.error.message}` : ''}
            {result.manifest ? ` — ${result.manifest.total_row_count} rows` : ''}
          </p>
          {columns.length > 0 && (
            <div className="scroll" tabIndex={0} role="region" aria-label="Result rows">
              <table>
                <thead>
                  <tr>
                    {columns.map((c) => (
                      <th key={c.position} scope="col">
                        {c.name}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {rows.slice(0, 1000).map((r, i) => (
                    <tr key={i}>
                      {r.map((v, k) => (
                        <td key={k}>{v === null ? 'NULL' : String(v)}</td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </div>
      )}
      <h2>History (your last 30 statements)</h2>
      {historyQ.isError && <ErrorView error={historyQ.error} onRetry={() => void historyQ.refetch()} />}
      {historyQ.data && (
        <ol data-testid="sql-history">
          {historyQ.data.history.map((h) => (
            <li key={h.statement_id}>
              <code>{h.statement}</code> — {h.state}
              {h.row_count !== null ? `, ${h.row_count} rows` : ''}{' '}
              <button
                type="button"
                onClick={() => setText(h.statement)}
                aria-label={`Use statement ${h.statement_id} in the editor`}
              >
                Use
              </button>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
