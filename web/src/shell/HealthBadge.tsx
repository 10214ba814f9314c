import { useQuery } from '@tanstack/react-query';
import { unwrap } from '../api/errors';
import { useConsole } from './context';

export const HEALTH_POLL_MS = 15_000;

/** ok / degraded (naming what is down) / unreachable — in words and a symbol, never by colour alone. */
export function HealthBadge() {
  const { api } = useConsole();
  const q = useQuery({
    queryKey: ['health'],
    queryFn: () => unwrap(api.client.GET('/api/health')),
    refetchInterval: HEALTH_POLL_MS,
    refetchIntervalInBackground: true,
    retry: false,
  });
  let text: string;
  let cls: string;
  if (q.isError) {
    text = '✕ API unreachable';
    cls = 'bad';
  } else if (!q.data) {
    text = '… checking the API';
    cls = 'unknown';
  } else if (q.data.status === 'ok') {
    text = '✓ All systems ok';
    cls = 'ok';
  } else {
    const down = [!q.data.runtime.temporal.reachable && 'Temporal', !q.data.runtime.store.reachable && 'store'].filter(
      Boolean,
    );
    text = `⚠ Degraded: ${down.join(' and ') || 'a dependency'} down`;
    cls = 'warn';
  }
  return (
    <output className={`badge badge-${cls}`} data-testid="health-badge" aria-live="polite">
      {text}
    </output>
  );
}
