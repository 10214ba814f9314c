import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { unwrap } from '../../api/errors';
import { useConsole } from '../../shell/context';
import { ErrorView } from '../../shell/ErrorView';
import { ChartTable } from '../charts/ChartTable';

const PERIODS = [7, 30, 90] as const;
const GROUPS = { day: 'Day', warehouse: 'Warehouse' } as const;
type Group = keyof typeof GROUPS;

/** USD as the tables show it: cents from a dollar up, four decimals below (a day of one X-Small is cents). */
export const usdAmount = (v: number) => `$${v >= 1 ? v.toFixed(2) : v.toFixed(4)}`;
/** DBUs with up to three decimals. */
export const dbuAmount = (v: number) => String(Math.round(v * 1000) / 1000);

/**
 * Spend from the billing views (`GET /api/finops/billing`): per day or per warehouse over the last 7, 30 or 90
 * days, as a bar chart of the cost and the table of the same numbers (cost and DBUs) beside it.
 */
export function Spend() {
  const { api } = useConsole();
  const [days, setDays] = useState<number>(30);
  const [group, setGroup] = useState<Group>('day');
  const q = useQuery({
    queryKey: ['finops-billing', days],
    queryFn: () => unwrap(api.client.GET('/api/finops/billing', { params: { query: { days } } })),
    // The ledger is derived as each job ends and every hour: read again now and then.
    refetchInterval: 60_000,
  });
  const d = q.data;
  const rows = d?.available
    ? group === 'day'
      ? d.daily_trend.map((r) => ({ key: r.date, cost: r.cost, dbus: r.dbus }))
      : d.by_warehouse.map((r) => ({ key: r.warehouse_id || 'no warehouse (storage)', cost: r.cost, dbus: r.dbus }))
    : [];
  return (
    <section aria-labelledby="spend-title">
      <h2 id="spend-title">Spend</h2>
      <div className="row-actions">
        <div className="field">
          <label htmlFor="spend-days">Period</label>
          <select id="spend-days" value={days} onChange={(e) => setDays(Number(e.target.value))}>
            {PERIODS.map((p) => (
              <option key={p} value={p}>
                last {p} days
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="spend-group">Spend per</label>
          <select id="spend-group" value={group} onChange={(e) => setGroup(e.target.value as Group)}>
            {Object.entries(GROUPS).map(([k, label]) => (
              <option key={k} value={k}>
                {label.toLowerCase()}
              </option>
            ))}
          </select>
        </div>
      </div>
      {q.isError && <ErrorView error={q.error} onRetry={() => void q.refetch()} />}
      {q.isPending && <p role="status">Loading the billing…</p>}
      {d && !d.available && (
        <p data-testid="spend-unavailable">
          <span aria-hidden="true">⚠</span> Billing is not available: {d.reason}
        </p>
      )}
      {d?.available && (
        <>
          <p data-testid="spend-total">
            {usdAmount(d.totals.cost)} ({dbuAmount(d.totals.dbus)} DBUs) in the last {d.days} days
          </p>
          <ChartTable
            testId="spend-table"
            caption={`Spend per ${group} over the last ${d.days} days (USD and DBUs)`}
            rows={rows}
            category={{ label: GROUPS[group], of: (r) => r.key }}
            columns={[
              { key: 'cost', label: 'Cost (USD)', cell: (r) => usdAmount(r.cost), plot: (r) => r.cost },
              { key: 'dbus', label: 'DBUs', cell: (r) => dbuAmount(r.dbus) },
            ]}
            empty={`No spend recorded in the last ${d.days} days (the usage ledger bills each hour once it has closed).`}
          />
        </>
      )}
    </section>
  );
}
