import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { unwrap } from '../../api/errors';
import type { paths } from '../../api/schema';
import { useConsole } from '../../shell/context';
import { CallError, fieldErrors, StatusWord, TextField } from '../compare/ui';
import { CASE_ACTIONS, slaClock, valueColumns, valuesDiffer } from './sla';

type Case = paths['/api/mdm/stewardship']['get']['responses']['200']['content']['application/json'][number];
type Resolve = NonNullable<
  paths['/api/mdm/stewardship/{case_id}/resolve']['post']['requestBody']
>['content']['application/json'];
const show = (v: unknown) => (v === null || v === undefined ? '(empty)' : String(v));
const differs = { outline: '2px solid currentColor', fontWeight: 700 } as const;

/** One case: SLA, score, the records side by side with differing attributes marked, and the steward's actions. */
export function CaseView({ c, now, onDone }: { c: Case; now: number; onDone: (message: string) => void }) {
  const { api } = useConsole();
  const allowed = c.status === 'open' ? (CASE_ACTIONS[c.type] ?? []) : [];
  const [notes, setNotes] = useState('');
  const [negative, setNegative] = useState(false);
  const [editing, setEditing] = useState(false);
  const [edits, setEdits] = useState<Record<string, string>>(() =>
    Object.fromEntries(
      c.attributes.map((a) => [a.attribute, show(a.values[0]) === '(empty)' ? '' : String(a.values[0])]),
    ),
  );
  const [to, setTo] = useState('');
  const path = { params: { path: { case_id: c.case_id } } };
  const resolve = useMutation({
    mutationFn: (body: Resolve) => unwrap(api.client.POST('/api/mdm/stewardship/{case_id}/resolve', { ...path, body })),
    onSuccess: (r) => onDone(effectText(c.case_id, r.effect)),
  });
  const reassign = useMutation({
    mutationFn: () => unwrap(api.client.POST('/api/mdm/stewardship/{case_id}/reassign', { ...path, body: { to } })),
    onSuccess: (r) => onDone(`Case ${r.case_id} assigned to ${r.assigned_to ?? 'nobody'}.`),
  });
  const withNotes = notes ? { notes } : {};
  const cols = valueColumns(c);
  const errs = { ...fieldErrors(resolve.error), ...fieldErrors(reassign.error) };
  return (
    <article
      aria-labelledby="case-title"
      className="card"
      style={{ flex: 1, minWidth: '22rem' }}
      data-testid="mdm-case-view"
    >
      <h2 id="case-title">
        {c.type.replace(/_/g, ' ')} <span className="marker">{c.case_id}</span>
      </h2>
      <dl className="cards">
        <div>
          <dt>SLA</dt>
          <dd data-testid="sla-clock">
            {c.status === 'open' ? (
              <>
                {c.sla_state && <StatusWord status={c.sla_state} />} — {slaClock(c.due_at, now)} (due{' '}
                {new Date(c.due_at).toLocaleString()})
              </>
            ) : (
              `resolved by ${c.resolved_by ?? '?'} at ${new Date(c.resolved_at ?? '').toLocaleString()}`
            )}
          </dd>
        </div>
        <div>
          <dt>Score</dt>
          <dd data-testid="case-score">{c.score === null ? 'no score' : `${c.score} of 100`}</dd>
        </div>
        <div>
          <dt>Entity type</dt>
          <dd>{c.entity_type}</dd>
        </div>
        <div>
          <dt>Assigned to</dt>
          <dd data-testid="case-assignee">{c.assigned_to ?? 'nobody'}</dd>
        </div>
      </dl>
      {c.records.length > 2 && (
        <p>
          Records in this golden record: {c.records.map((r) => `${r.system}:${r.record_id}`).join(', ')}
          {cols ? '; the values below are of its weakest pair.' : '.'}
        </p>
      )}
      {c.attributes.length === 0 ? (
        <p>No attribute values were recorded with this case.</p>
      ) : (
        <table data-testid="case-records">
          <caption>
            {cols ? 'Both records side by side' : 'Tied candidate values'}; ≠ marks an attribute whose values differ
          </caption>
          <thead>
            <tr>
              <th scope="col">Attribute</th>
              {cols ? (
                cols.map((r) => (
                  <th scope="col" key={`${r.system}:${r.record_id}`}>
                    {r.system}:{r.record_id}
                  </th>
                ))
              ) : (
                <th scope="col">Values</th>
              )}
              <th scope="col">Weight</th>
            </tr>
          </thead>
          <tbody>
            {c.attributes.map((a) => {
              const d = valuesDiffer(a.values);
              return (
                <tr key={a.attribute} data-differs={d || undefined} data-testid="case-attribute">
                  <th scope="row">
                    {d && <span aria-label="differs: ">≠ </span>}
                    {a.attribute}
                  </th>
                  {cols ? (
                    cols.map((_, i) => (
                      <td key={i} style={d ? differs : undefined}>
                        {show(a.values[i])}
                      </td>
                    ))
                  ) : (
                    <td style={d ? differs : undefined}>{a.values.map(show).join(' | ')}</td>
                  )}
                  <td>{a.weight === null || a.weight === undefined ? '—' : a.weight}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {c.status === 'open' && (
        <>
          <div className="field">
            <label htmlFor="case-notes">Notes (kept with the resolution)</label>
            <textarea id="case-notes" value={notes} maxLength={4000} onChange={(e) => setNotes(e.target.value)} />
          </div>
          <div className="row-actions">
            {allowed.includes('approve_match') && (
              <button
                type="button"
                disabled={resolve.isPending}
                onClick={() => resolve.mutate({ action: 'approve_match', ...withNotes })}
              >
                Approve match
              </button>
            )}
            {allowed.includes('reject') && (
              <>
                <button
                  type="button"
                  disabled={resolve.isPending}
                  onClick={() =>
                    resolve.mutate({
                      action: 'reject',
                      ...withNotes,
                      ...(negative ? { flag_negative_match: true } : {}),
                    })
                  }
                >
                  Reject
                </button>
                <label className="field checkbox">
                  <input type="checkbox" checked={negative} onChange={(e) => setNegative(e.target.checked)} />
                  and keep these records apart (negative match)
                </label>
              </>
            )}
            {allowed.includes('override') && (
              <button type="button" aria-expanded={editing} onClick={() => setEditing(!editing)}>
                Edit values
              </button>
            )}
            {allowed.includes('close') && (
              <button type="button" onClick={() => resolve.mutate({ action: 'close', ...withNotes })}>
                Close case
              </button>
            )}
          </div>
          {editing && (
            <form
              aria-label="Edit the golden values"
              onSubmit={(e) => {
                e.preventDefault();
                const attribute_overrides = Object.fromEntries(
                  Object.entries(edits).map(([k, v]) => [k, v === '' ? null : v]),
                );
                resolve.mutate({ action: 'override', attribute_overrides, ...withNotes });
              }}
            >
              {Object.keys(edits).map((k) => (
                <TextField
                  key={k}
                  id={`override-${k}`}
                  label={k}
                  value={edits[k]}
                  error={errs[`attribute_overrides.${k}`]}
                  onChange={(v) => setEdits((x) => ({ ...x, [k]: v }))}
                />
              ))}
              {errs.attribute_overrides && <p className="field-error">⚠ {errs.attribute_overrides}</p>}
              <button type="submit" disabled={resolve.isPending}>
                Save the values
              </button>
            </form>
          )}
          <form
            className="row-actions"
            onSubmit={(e) => {
              e.preventDefault();
              reassign.mutate();
            }}
          >
            <TextField id="reassign-to" label="Reassign to (key name)" value={to} onChange={setTo} error={errs.to} />
            <button type="submit" disabled={reassign.isPending || !to}>
              Reassign
            </button>
          </form>
        </>
      )}
      <CallError error={resolve.error} fields={['action', 'attribute_overrides', 'flag_negative_match']} />
      {resolve.error && errs.action && <p className="field-error">⚠ {errs.action}</p>}
      <CallError error={reassign.error} fields={['to']} />
      {c.resolution && <pre aria-label="Resolution">{JSON.stringify(c.resolution, null, 2)}</pre>}
    </article>
  );
}

type Effect =
  paths['/api/mdm/stewardship/{case_id}/resolve']['post']['responses']['200']['content']['application/json']['effect'];

/** What a resolve did, in words (shown after the queue moves on). */
function effectText(caseId: string, e: Effect): string {
  const parts = [
    e.merged_into ? `merged into ${e.merged_into}` : '',
    e.split_out ? `split out ${e.split_out}` : '',
    e.overrides?.length ? `values set: ${e.overrides.join(', ')}` : '',
    e.negative_match_rule ? `negative-match rule ${e.negative_match_rule}` : '',
    e.golden_updated ? 'golden record updated' : 'golden records unchanged',
    e.note ?? '',
  ].filter(Boolean);
  return `Case ${caseId} resolved: ${parts.join('; ')}.`;
}
