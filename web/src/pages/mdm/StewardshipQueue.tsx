import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { unwrap } from '../../api/errors';
import type { paths } from '../../api/schema';
import { useConsole } from '../../shell/context';
import { ErrorView } from '../../shell/ErrorView';
import { uiState } from '../../state/ui-state';
import { StatusWord } from '../compare/ui';
import { CaseView } from './CaseView';
import { slaClock, step } from './sla';

type ListQuery = NonNullable<paths['/api/mdm/stewardship']['get']['parameters']['query']>;
interface Filters {
  status: 'open' | 'resolved';
  type: string;
  sla_state: string;
  mine: boolean;
}
const TYPES = [
  'match_review',
  'suspected_duplicate',
  'negative_match_candidate',
  'conflict_resolution',
  'stewardship_request',
];

/** A minute clock for SLA countdowns (runs on the page clock, so tests can move it). */
export function useNow(everyMs = 30_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const t = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(t);
  }, [everyMs]);
  return now;
}

/**
 * /mdm/stewardship — the stewardship queue, soonest due first: SLA clock and state per case; the selected case with
 * both records side by side (differing attributes marked), its score, and approve / reject (+ negative match) /
 * edit / reassign. j and k move through the queue from anywhere outside a text field.
 */
export function StewardshipQueue() {
  const { api } = useConsole();
  const qc = useQueryClient();
  const now = useNow();
  const [filters, setFilters] = useState<Filters>(
    () => uiState.load<Filters>('mdm.queue.filters') ?? { status: 'open', type: '', sla_state: '', mine: false },
  );
  useEffect(() => uiState.save('mdm.queue.filters', filters), [filters]);
  const [index, setIndex] = useState(0);
  const [message, setMessage] = useState('');
  const query: ListQuery = {
    status: filters.status,
    ...(filters.type ? { type: filters.type as ListQuery['type'] } : {}),
    ...(filters.sla_state ? { sla_state: filters.sla_state as ListQuery['sla_state'] } : {}),
    ...(filters.mine ? { assigned_to: 'me' } : {}),
  };
  const list = useQuery({
    queryKey: ['mdm-cases', query],
    queryFn: () => unwrap(api.client.GET('/api/mdm/stewardship', { params: { query } })),
  });
  const cases = list.data ?? [];
  const current = cases[Math.min(index, Math.max(cases.length - 1, 0))];

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'j' && e.key !== 'k') return;
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      const t = e.target as HTMLElement | null;
      if (t && (t.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(t.tagName))) return;
      e.preventDefault();
      setIndex((i) => step(Math.min(i, cases.length - 1), cases.length, e.key as 'j' | 'k'));
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [cases.length]);

  const set = (patch: Partial<Filters>) => {
    setIndex(0);
    setFilters((f) => ({ ...f, ...patch }));
  };
  return (
    <section aria-labelledby="mdm-title">
      <h1 id="mdm-title">Stewardship queue</h1>
      <p className="marker">Keys: j next case, k previous case.</p>
      <div className="row-actions">
        <label className="field">
          Status
          <select value={filters.status} onChange={(e) => set({ status: e.target.value as Filters['status'] })}>
            <option value="open">open</option>
            <option value="resolved">resolved</option>
          </select>
        </label>
        <label className="field">
          Type
          <select value={filters.type} onChange={(e) => set({ type: e.target.value })}>
            <option value="">any</option>
            {TYPES.map((t) => (
              <option key={t} value={t}>
                {t.replace(/_/g, ' ')}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          SLA
          <select value={filters.sla_state} onChange={(e) => set({ sla_state: e.target.value })}>
            <option value="">any</option>
            <option value="on_track">on track</option>
            <option value="at_risk">at risk</option>
            <option value="overdue">overdue</option>
          </select>
        </label>
        <label className="field checkbox">
          <input type="checkbox" checked={filters.mine} onChange={(e) => set({ mine: e.target.checked })} />
          Assigned to me
        </label>
      </div>
      <p role="status" data-testid="mdm-message">
        {message}
      </p>
      {list.isError && <ErrorView error={list.error} onRetry={() => void list.refetch()} />}
      {list.isPending && <p role="status">Loading cases…</p>}
      {list.data && (
        <div className="cards" style={{ alignItems: 'flex-start' }}>
          <div className="card" style={{ flex: '0 1 24rem' }}>
            <p aria-live="polite">
              {cases.length} {filters.status} case{cases.length === 1 ? '' : 's'}
            </p>
            <ul
              className="scroll"
              aria-label="Cases, soonest due first"
              data-testid="mdm-queue"
              style={{ paddingLeft: 0 }}
            >
              {cases.map((c, i) => (
                <li key={c.case_id} style={{ listStyle: 'none', margin: '4px 0' }}>
                  <button
                    type="button"
                    aria-current={c === current ? 'true' : undefined}
                    data-testid="mdm-case"
                    onClick={() => setIndex(i)}
                    style={{ width: '100%', textAlign: 'left', fontWeight: c === current ? 700 : 400 }}
                  >
                    {c === current ? '▸ ' : ''}
                    {c.type.replace(/_/g, ' ')} · {c.records.map((r) => `${r.system}:${r.record_id}`).join(' / ')}
                    <br />
                    {c.sla_state ? <StatusWord status={c.sla_state} /> : 'resolved'} ·{' '}
                    {c.status === 'open'
                      ? slaClock(c.due_at, now)
                      : `resolved ${new Date(c.resolved_at ?? '').toLocaleString()}`}
                    {c.score !== null ? ` · score ${c.score}` : ''}
                  </button>
                </li>
              ))}
            </ul>
          </div>
          {current && (
            <CaseView
              key={current.case_id}
              c={current}
              now={now}
              onDone={(m) => {
                setMessage(m);
                void qc.invalidateQueries({ queryKey: ['mdm-cases'] });
              }}
            />
          )}
        </div>
      )}
    </section>
  );
}
