import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { unwrap } from '../../api/errors';
import { useConsole } from '../../shell/context';
import { ErrorView } from '../../shell/ErrorView';
import { StatusWord } from '../compare/ui';

const STATE_WORD: Record<string, string> = {
  RUNNING: 'running',
  STARTING: 'queued',
  STOPPING: 'applying',
  STOPPED: 'paused',
  DELETING: 'cancelled',
  DELETED: 'cancelled',
};

/** SQL warehouses with size, scaling, auto-stop and state; start and stop (what costs while it runs). */
export function Warehouses() {
  const { api } = useConsole();
  const qc = useQueryClient();
  const list = useQuery({
    queryKey: ['warehouses'],
    queryFn: () => unwrap(api.client.GET('/api/infrastructure/warehouses')),
    refetchInterval: 10_000,
  });
  const act = useMutation({
    mutationFn: ({ id, cmd }: { id: string; cmd: 'start' | 'stop' }) =>
      cmd === 'start'
        ? unwrap(api.client.POST('/api/infrastructure/warehouses/{id}/start', { params: { path: { id } } }))
        : unwrap(api.client.POST('/api/infrastructure/warehouses/{id}/stop', { params: { path: { id } } })),
    onSettled: () => qc.invalidateQueries({ queryKey: ['warehouses'] }),
  });
  return (
    <section aria-labelledby="warehouses-title">
      <h2 id="warehouses-title">Warehouses</h2>
      {list.isError && <ErrorView error={list.error} onRetry={() => void list.refetch()} />}
      {act.isError && <ErrorView error={act.error} />}
      {act.data && <p role="status">{act.data.message}</p>}
      {list.data && list.data.warehouses.length === 0 && <p>No SQL warehouses.</p>}
      {list.data && list.data.warehouses.length > 0 && (
        <table data-testid="warehouses-table">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">State</th>
              <th scope="col">Size</th>
              <th scope="col">Clusters (min–max)</th>
              <th scope="col">Auto stop</th>
              <th scope="col">Type</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {list.data.warehouses.map((w) => (
              <tr key={w.id}>
                <td>{w.name}</td>
                <td>
                  <StatusWord status={STATE_WORD[w.state] ?? w.state}>{w.state.toLowerCase()}</StatusWord>
                </td>
                <td>{w.cluster_size}</td>
                <td>
                  {w.num_clusters} ({w.min_num_clusters}–{w.max_num_clusters})
                </td>
                <td>{w.auto_stop_mins === 0 ? 'never' : `${w.auto_stop_mins} min`}</td>
                <td>{w.type}</td>
                <td>
                  {w.state === 'STOPPED' ? (
                    <button type="button" onClick={() => act.mutate({ id: w.id, cmd: 'start' })}>
                      Start {w.name}
                    </button>
                  ) : (
                    <button
                      type="button"
                      disabled={w.state !== 'RUNNING'}
                      onClick={() => act.mutate({ id: w.id, cmd: 'stop' })}
                    >
                      Stop {w.name}
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
