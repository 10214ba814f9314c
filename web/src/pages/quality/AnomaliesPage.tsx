import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { unwrap } from '../../api/errors';
import type { components } from '../../api/schema';
import { useConsole } from '../../shell/context';
import { ErrorView } from '../../shell/ErrorView';
import { RoleNote, useCan } from '../../shell/roles';
import { uiState } from '../../state/ui-state';
import { QualityNav, Status } from './status';
import { Pager } from './VirtualTable';

type Anomaly = components['schemas']['DqAnomaly'];
type Action = 'acknowledge' | 'resolve' | 'false-positive';
const STATUSES = ['open', 'acknowledged', 'resolved', 'false_positive'] as const;
const SEVERITIES = ['critical', 'warning', 'info'] as const;
const KEYS: Record<string, Action> = { a: 'acknowledge', r: 'resolve', f: 'false-positive' };
const LABEL: Record<Action, string> = {
  acknowledge: 'Acknowledge (a)',
  resolve: 'Resolve (r)',
  'false-positive': 'False positive (f)',
};

/** Which actions the API allows from a status (acknowledge and false positive: open; resolve: open or acknowledged). */
export function allowed(a: Pick<Anomaly, 'status'>, action: Action): boolean {
  if (action === 'resolve') return a.status === 'open' || a.status === 'acknowledged';
  return a.status === 'open';
}

interface Filters {
  status: (typeof STATUSES)[number] | '';
  severity: (typeof SEVERITIES)[number] | '';
}

const num = (v: number) => String(Math.round(v * 1000) / 1000);

/**
 * /quality/anomalies: triage from the keyboard. In the list, j/k (or the arrows) move, a acknowledges, r resolves,
 * f marks a false positive; each change is the API's answer, announced.
 */
export function AnomaliesPage() {
  const { api } = useConsole();
  const client = useQueryClient();
  const [filters, setFilters] = useState<Filters>(
    () => uiState.load<Filters>('quality.anomalies') ?? { status: 'open', severity: '' },
  );
  useEffect(() => uiState.save('quality.anomalies', filters), [filters]);
  const [index, setIndex] = useState(0);
  const [page, setPage] = useState(0);
  const [said, setSaid] = useState('');
  const listRef = useRef<HTMLDivElement>(null);
  const can = useCan('post /api/data-quality/anomalies/{id}/acknowledge');
  const query = {
    limit: 200,
    offset: page * 200,
    ...(filters.status ? { status: filters.status } : {}),
    ...(filters.severity ? { severity: filters.severity } : {}),
  };
  const list = useQuery({
    queryKey: ['dq-anomalies', query],
    queryFn: () => unwrap(api.client.GET('/api/data-quality/anomalies', { params: { query } })),
  });
  const items = list.data ?? [];
  const current = items[Math.min(index, items.length - 1)];
  const act = useMutation({
    mutationFn: ({ a, action }: { a: Anomaly; action: Action }) => {
      const params = { params: { path: { id: a.id } } };
      if (action === 'acknowledge')
        return unwrap(api.client.POST('/api/data-quality/anomalies/{id}/acknowledge', params));
      if (action === 'resolve') return unwrap(api.client.POST('/api/data-quality/anomalies/{id}/resolve', params));
      return unwrap(api.client.POST('/api/data-quality/anomalies/{id}/false-positive', params));
    },
    onSuccess: (a) => {
      setSaid(`${a.metric} of ${a.table_fqn}${a.column ? `.${a.column}` : ''} is now ${a.status.replace('_', ' ')}`);
      void client.invalidateQueries({ queryKey: ['dq-anomalies'] });
    },
  });
  const run = (action: Action) => {
    if (!can.allowed) return setSaid(can.reason);
    if (current && allowed(current, action) && !act.isPending) act.mutate({ a: current, action });
  };
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const k = e.key;
    if (k === 'j' || k === 'ArrowDown') setIndex((i) => Math.min(i + 1, items.length - 1));
    else if (k === 'k' || k === 'ArrowUp') setIndex((i) => Math.max(i - 1, 0));
    else if (k === 'Home') setIndex(0);
    else if (k === 'End') setIndex(items.length - 1);
    else if (KEYS[k]) run(KEYS[k]);
    else return;
    e.preventDefault();
  };
  useEffect(() => {
    if (current) document.getElementById(`anomaly-${current.id}`)?.scrollIntoView({ block: 'nearest' });
  }, [current]);
  const set = (patch: Partial<Filters>) => {
    setFilters((f) => ({ ...f, ...patch }));
    setIndex(0);
    setPage(0);
  };
  return (
    <section aria-labelledby="anomalies-title">
      <h1 id="anomalies-title">Anomalies</h1>
      <QualityNav />
      <div className="row-actions">
        <label className="field">
          Status
          <select value={filters.status} onChange={(e) => set({ status: e.target.value as Filters['status'] })}>
            <option value="">any</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {s.replace('_', ' ')}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          Severity
          <select value={filters.severity} onChange={(e) => set({ severity: e.target.value as Filters['severity'] })}>
            <option value="">any</option>
            {SEVERITIES.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </label>
      </div>
      <p id="anomaly-keys">
        In the list: <kbd>j</kbd>/<kbd>k</kbd> or the arrows move, <kbd>a</kbd> acknowledges, <kbd>r</kbd> resolves,{' '}
        <kbd>f</kbd> marks a false positive.
      </p>
      <p role="status" aria-live="polite" data-testid="anomaly-said">
        {said}
      </p>
      {act.isError && <ErrorView error={act.error} requiredRole="steward" />}
      {list.isError && <ErrorView error={list.error} onRetry={() => void list.refetch()} />}
      {list.isPending && <p role="status">Loading anomalies…</p>}
      {list.data && items.length === 0 && <p>No anomaly matches these filters.</p>}
      {list.data && (
        <Pager
          page={page}
          size={200}
          shown={items.length}
          onPage={(p) => {
            setPage(p);
            setIndex(0);
          }}
        />
      )}
      {items.length > 0 && (
        <div className="cards">
          <div
            ref={listRef}
            role="listbox"
            tabIndex={0}
            aria-label={`Anomalies (${items.length})`}
            aria-describedby="anomaly-keys"
            aria-activedescendant={current ? `anomaly-${current.id}` : undefined}
            className="scroll triage-list"
            data-testid="anomaly-list"
            onKeyDown={onKeyDown}
          >
            {items.map((a, i) => (
              <div
                key={a.id}
                id={`anomaly-${a.id}`}
                role="option"
                aria-selected={a === current}
                data-testid="anomaly"
                className="card"
                style={a === current ? { outline: '3px solid currentColor', outlineOffset: -3 } : undefined}
                tabIndex={-1}
                onClick={() => {
                  setIndex(i);
                  listRef.current?.focus();
                }}
                onKeyDown={onKeyDown}
              >
                {a === current ? '▶ ' : ''}
                <Status value={a.severity} /> · <Status value={a.status} /> — {a.table_fqn}
                {a.column ? `.${a.column}` : ''} {a.metric} = {num(a.observed_value)}
              </div>
            ))}
          </div>
          {current && (
            <article aria-labelledby="anomaly-detail-title" className="card" data-testid="anomaly-detail">
              <h2 id="anomaly-detail-title">
                {current.metric} of {current.table_fqn}
                {current.column ? `.${current.column}` : ''}
              </h2>
              <dl>
                <dt>Observed</dt>
                <dd>{num(current.observed_value)}</dd>
                <dt>Expected</dt>
                <dd>
                  {num(current.expected_range.min)} to {num(current.expected_range.max)} (mean{' '}
                  {num(current.baseline.mean)}, σ {num(current.baseline.stddev)}, {current.baseline.samples} samples)
                </dd>
                <dt>z-score</dt>
                <dd>{num(current.z_score)}</dd>
                <dt>Severity, status</dt>
                <dd>
                  <Status value={current.severity} />, <Status value={current.status} />
                  {current.status_changed_by ? ` by ${current.status_changed_by}` : ''}
                </dd>
                <dt>Detected</dt>
                <dd>{new Date(current.detected_at).toLocaleString()}</dd>
              </dl>
              <div className="row-actions">
                {(Object.keys(LABEL) as Action[]).map((action) => (
                  <button
                    key={action}
                    type="button"
                    disabled={!allowed(current, action) || act.isPending || !can.allowed}
                    aria-describedby={can.allowed ? undefined : 'anomaly-role-note'}
                    onClick={() => run(action)}
                  >
                    {LABEL[action]}
                  </button>
                ))}
                <RoleNote can={can} id="anomaly-role-note" />
              </div>
            </article>
          )}
        </div>
      )}
    </section>
  );
}
