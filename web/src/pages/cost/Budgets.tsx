import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { unwrap } from '../../api/errors';
import type { components } from '../../api/schema';
import { useConsole } from '../../shell/context';
import { ErrorView } from '../../shell/ErrorView';
import { ConfirmButton } from '../jobs/ConfirmButton';
import { CallError, fieldErrors, StatusWord, TextField } from '../compare/ui';

type Budget = components['schemas']['Budget'];
const CATEGORIES = ['total', 'platform', 'compute', 'storage'] as const;
const usd = (v: number) => `$${v.toFixed(2)}`;

/** Budgets kept by the server: this period's actual and forecast, utilisation and state; create, edit, delete. */
export function Budgets() {
  const { api } = useConsole();
  const qc = useQueryClient();
  const [form, setForm] = useState({ name: '', category: 'total', amount: '', threshold: '80' });
  const [editing, setEditing] = useState<{ id: string; amount: string } | null>(null);
  const list = useQuery({ queryKey: ['budgets'], queryFn: () => unwrap(api.client.GET('/api/finops/budgets')) });
  const refresh = () => qc.invalidateQueries({ queryKey: ['budgets'] });
  const create = useMutation({
    mutationFn: () =>
      unwrap(
        api.client.POST('/api/finops/budgets', {
          body: {
            name: form.name,
            period: 'monthly',
            category: form.category as Budget['category'],
            amount_usd: Number(form.amount),
            alert_threshold_pct: Number(form.threshold),
          },
        }),
      ),
    onSuccess: () => {
      setForm({ name: '', category: 'total', amount: '', threshold: '80' });
      void refresh();
    },
  });
  const patch = useMutation({
    mutationFn: (e: { id: string; amount: string }) =>
      unwrap(
        api.client.PATCH('/api/finops/budgets/{id}', {
          params: { path: { id: e.id } },
          body: { amount_usd: Number(e.amount) },
        }),
      ),
    onSuccess: () => {
      setEditing(null);
      void refresh();
    },
  });
  const remove = useMutation({
    mutationFn: (id: string) => unwrap(api.client.DELETE('/api/finops/budgets/{id}', { params: { path: { id } } })),
    onSettled: refresh,
  });
  const evaluate = useMutation({
    mutationFn: () => unwrap(api.client.POST('/api/finops/budgets/evaluate')),
    onSettled: refresh,
  });
  const errs = fieldErrors(create.error);
  const patchErrs = fieldErrors(patch.error);
  return (
    <section aria-labelledby="budgets-title">
      <h2 id="budgets-title">Budgets</h2>
      {list.isError && <ErrorView error={list.error} onRetry={() => void list.refetch()} />}
      {list.data && list.data.budgets.length === 0 && <p>No budgets yet.</p>}
      {list.data && list.data.budgets.length > 0 && (
        <table data-testid="budgets-table">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Category</th>
              <th scope="col">Amount / month</th>
              <th scope="col">Actual</th>
              <th scope="col">Forecast</th>
              <th scope="col">Used</th>
              <th scope="col">State</th>
              <th scope="col">Actions</th>
            </tr>
          </thead>
          <tbody>
            {list.data.budgets.map((b) => (
              <tr key={b.id} data-testid="budget-row">
                <td>{b.name}</td>
                <td>{b.category}</td>
                <td>
                  {editing?.id === b.id ? (
                    <form
                      onSubmit={(e) => {
                        e.preventDefault();
                        patch.mutate(editing);
                      }}
                    >
                      <TextField
                        id={`budget-amount-${b.id}`}
                        label={`New amount for ${b.name} (USD)`}
                        type="number"
                        value={editing.amount}
                        error={patchErrs.amount_usd}
                        onChange={(v) => setEditing({ id: b.id, amount: v })}
                      />
                      <button type="submit">Save amount</button>
                    </form>
                  ) : (
                    usd(b.amount_usd)
                  )}
                </td>
                <td>{b.cost_available ? usd(b.actual_usd) : 'cost not available'}</td>
                <td>{b.cost_available ? usd(b.forecast_usd) : '—'}</td>
                <td>{b.cost_available ? `${Math.round(b.utilization_pct * 10) / 10} %` : '—'}</td>
                <td>
                  {b.cost_available ? (
                    <StatusWord status={b.state} />
                  ) : (
                    <span title={b.cost_unavailable_reason}>
                      unknown ({b.cost_unavailable_reason ?? 'no billing data'})
                    </span>
                  )}
                </td>
                <td>
                  <div className="row-actions">
                    <button type="button" onClick={() => setEditing({ id: b.id, amount: String(b.amount_usd) })}>
                      Edit {b.name}
                    </button>
                    <ConfirmButton
                      label={`Delete ${b.name}`}
                      question={`Delete the budget ${b.name}? Its alerts stop.`}
                      confirmLabel="Delete the budget"
                      onConfirm={() => remove.mutate(b.id)}
                    />
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <CallError error={patch.error} fields={['amount_usd']} />
      {remove.isError && <ErrorView error={remove.error} />}
      <div className="row-actions">
        <button type="button" disabled={evaluate.isPending} onClick={() => evaluate.mutate()}>
          Evaluate budgets now
        </button>
        {evaluate.data && (
          <span role="status">
            {evaluate.data.evaluated} evaluated for {evaluate.data.period}, {evaluate.data.alerts_raised} alerts raised
          </span>
        )}
      </div>
      {evaluate.isError && <ErrorView error={evaluate.error} />}
      <form
        aria-labelledby="budget-new-title"
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate();
        }}
      >
        <h3 id="budget-new-title">New budget</h3>
        <div className="row-actions">
          <TextField
            id="budget-name"
            label="Name"
            value={form.name}
            required
            error={errs.name}
            onChange={(v) => setForm({ ...form, name: v })}
          />
          <div className="field">
            <label htmlFor="budget-category">Category</label>
            <select
              id="budget-category"
              value={form.category}
              onChange={(e) => setForm({ ...form, category: e.target.value })}
            >
              {CATEGORIES.map((c) => (
                <option key={c}>{c}</option>
              ))}
            </select>
          </div>
          <TextField
            id="budget-amount"
            label="Amount per month (USD)"
            type="number"
            required
            value={form.amount}
            error={errs.amount_usd}
            onChange={(v) => setForm({ ...form, amount: v })}
          />
          <TextField
            id="budget-threshold"
            label="Alert at (% of amount)"
            type="number"
            value={form.threshold}
            error={errs.alert_threshold_pct}
            onChange={(v) => setForm({ ...form, threshold: v })}
          />
        </div>
        <button type="submit" disabled={create.isPending}>
          Create the budget
        </button>
      </form>
      <CallError error={create.error} fields={['name', 'amount_usd', 'alert_threshold_pct', 'category']} />
    </section>
  );
}
