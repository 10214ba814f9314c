import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { unwrap } from '../../api/errors';
import type { components } from '../../api/schema';
import { useConsole } from '../../shell/context';
import { ErrorView } from '../../shell/ErrorView';
import { CallError, fieldErrors, StatusWord, TextField } from '../compare/ui';
import { PlaybookForm } from './PlaybookForm';

type Execution = components['schemas']['PlaybookExecution'];

/** Playbooks: list, create from scratch or from a ready template, run now (dry run by default) with the outcome of each action. */
export function Playbooks() {
  const { api } = useConsole();
  const qc = useQueryClient();
  const [template, setTemplate] = useState('');
  /** The playbook being created, as JSON (null: the chosen template's, unedited). */
  const [json, setJson] = useState<string | null>(null);
  const [jsonError, setJsonError] = useState('');
  const [name, setName] = useState('');
  const [dryRun, setDryRun] = useState(true);
  const [history, setHistory] = useState<string | null>(null);
  const [last, setLast] = useState<Execution | null>(null);
  const list = useQuery({ queryKey: ['playbooks'], queryFn: () => unwrap(api.client.GET('/api/playbooks')) });
  const templates = useQuery({
    queryKey: ['playbook-templates'],
    queryFn: () => unwrap(api.client.GET('/api/playbooks/templates')),
  });
  const chosen = templates.data?.templates.find(
    (t) => t.template_id === (template || templates.data?.templates[0]?.template_id),
  );
  const templateText = chosen ? JSON.stringify({ ...chosen.playbook, name: undefined }, null, 2) : '';
  const create = useMutation({
    mutationFn: (body: Record<string, unknown>) =>
      unwrap(api.client.POST('/api/playbooks', { body: { ...(body as object), name } as never })),
    onSuccess: () => {
      setName('');
      setJson(null);
      void qc.invalidateQueries({ queryKey: ['playbooks'] });
    },
  });
  const execute = useMutation({
    mutationFn: (id: string) =>
      unwrap(
        api.client.POST('/api/playbooks/{playbook_id}/execute', {
          params: { path: { playbook_id: id } },
          body: { dry_run: dryRun },
        }),
      ),
    onSuccess: (e) => {
      setLast(e);
      void qc.invalidateQueries({ queryKey: ['playbook-history', e.playbook_id] });
    },
  });
  const errs = fieldErrors(create.error);
  // Errors inside the playbook (trigger, conditions, actions.N.params.x) belong to the JSON field.
  const playbookError =
    jsonError ||
    Object.entries(errs)
      .filter(([k]) => k !== 'name')
      .map(([k, m]) => `${k}: ${m}`)
      .join('; ');
  return (
    <section aria-labelledby="playbooks-title">
      <h2 id="playbooks-title">Playbooks</h2>
      {list.isError && <ErrorView error={list.error} onRetry={() => void list.refetch()} />}
      {list.data && list.data.playbooks.length === 0 && <p>No playbooks yet.</p>}
      <label className="field checkbox">
        <input type="checkbox" checked={dryRun} onChange={(e) => setDryRun(e.target.checked)} />
        Dry run (show what each action would do, do nothing)
      </label>
      {list.data && list.data.playbooks.length > 0 && (
        <table data-testid="playbooks-table">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Trigger</th>
              <th scope="col">Condition</th>
              <th scope="col">Actions</th>
              <th scope="col">Enabled</th>
              <th scope="col">Run</th>
            </tr>
          </thead>
          <tbody>
            {list.data.playbooks.map((p) => (
              <tr key={p.playbook_id} data-testid="playbook-row">
                <td>{p.name}</td>
                <td>{p.trigger_type.replace(/_/g, ' ')}</td>
                <td>
                  <code>{p.conditions || 'always'}</code>
                </td>
                <td>{p.actions.map((a) => a.type).join(' → ')}</td>
                <td>
                  {p.enabled ? (
                    <StatusWord status="active">enabled</StatusWord>
                  ) : (
                    <StatusWord status="paused">disabled</StatusWord>
                  )}
                </td>
                <td>
                  <div className="row-actions">
                    <button type="button" disabled={execute.isPending} onClick={() => execute.mutate(p.playbook_id)}>
                      Run {p.name} now
                    </button>
                    <button
                      type="button"
                      aria-expanded={history === p.playbook_id}
                      onClick={() => setHistory(history === p.playbook_id ? null : p.playbook_id)}
                    >
                      History of {p.name}
                    </button>
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {execute.isError && <ErrorView error={execute.error} />}
      {last && <ExecutionView e={last} title="Last run" />}
      {history && <History id={history} />}
      <form
        aria-labelledby="playbook-new-title"
        onSubmit={(e) => {
          e.preventDefault();
          try {
            const body = JSON.parse(json ?? templateText) as Record<string, unknown>;
            setJsonError('');
            create.mutate(body);
          } catch (err) {
            setJsonError(`not JSON: ${(err as Error).message}`);
            document.getElementById('playbook-json')?.focus();
          }
        }}
      >
        <h3 id="playbook-new-title">New playbook from a template</h3>
        {templates.isError && <ErrorView error={templates.error} />}
        <div className="row-actions">
          <div className="field">
            <label htmlFor="playbook-template">Playbook template</label>
            <select
              id="playbook-template"
              value={chosen?.template_id ?? ''}
              onChange={(e) => {
                setTemplate(e.target.value);
                setJson(null);
                setJsonError('');
                create.reset();
              }}
            >
              {templates.data?.templates.map((t) => (
                <option key={t.template_id} value={t.template_id}>
                  {t.name}
                </option>
              ))}
            </select>
          </div>
          <TextField
            id="playbook-name"
            label="Playbook name"
            required
            value={name}
            error={errs.name}
            onChange={setName}
          />
        </div>
        {chosen && <p className="marker">{chosen.description}</p>}
        <div className="field" style={{ maxWidth: '60rem' }}>
          <label htmlFor="playbook-json">
            Playbook (JSON: trigger, conditions, actions; edit the template's placeholders)
          </label>
          <textarea
            id="playbook-json"
            rows={12}
            value={json ?? templateText}
            aria-invalid={playbookError ? true : undefined}
            aria-describedby={playbookError ? 'playbook-json-error' : undefined}
            onChange={(e) => setJson(e.target.value)}
          />
          {playbookError && (
            <span id="playbook-json-error" className="field-error">
              ⚠ {playbookError}
            </span>
          )}
        </div>
        <button type="submit" disabled={create.isPending || !chosen}>
          Create the playbook
        </button>
      </form>
      {create.isError && !playbookError && !errs.name && <CallError error={create.error} fields={[]} />}
      <PlaybookForm />
    </section>
  );
}

function ExecutionView({ e, title }: { e: Execution; title: string }) {
  return (
    <div className="card" data-testid="playbook-execution">
      <h3>
        {title}: {e.playbook_name} — <StatusWord status={e.status} />
        {e.dry_run ? ' (dry run)' : ''}
      </h3>
      {e.error && <p>{e.error}</p>}
      <ol>
        {e.actions.map((a, i) => (
          <li key={i}>
            {a.type}: <StatusWord status={a.status} /> after {a.attempts} attempt{a.attempts === 1 ? '' : 's'}
            {a.error ? ` — ${a.error}` : ''}
            {a.output && Object.keys(a.output).length > 0 && <pre>{JSON.stringify(a.output, null, 2)}</pre>}
          </li>
        ))}
      </ol>
    </div>
  );
}

function History({ id }: { id: string }) {
  const { api } = useConsole();
  const q = useQuery({
    queryKey: ['playbook-history', id],
    queryFn: () =>
      unwrap(
        api.client.GET('/api/playbooks/{playbook_id}/history', {
          params: { path: { playbook_id: id }, query: { limit: 20 } },
        }),
      ),
  });
  if (q.isError) return <ErrorView error={q.error} onRetry={() => void q.refetch()} />;
  if (!q.data) return <p role="status">Loading the history…</p>;
  return (
    <table data-testid="playbook-history">
      <caption>The last {q.data.executions.length} runs, newest first</caption>
      <thead>
        <tr>
          <th scope="col">Started</th>
          <th scope="col">Trigger</th>
          <th scope="col">Outcome</th>
          <th scope="col">Actions</th>
        </tr>
      </thead>
      <tbody>
        {q.data.executions.map((e) => (
          <tr key={e.execution_id}>
            <td>{new Date(e.started_at).toLocaleString()}</td>
            <td>{e.trigger}</td>
            <td>
              <StatusWord status={e.status} />
              {e.dry_run ? ' (dry run)' : ''}
            </td>
            <td>{e.actions.map((a) => `${a.type} ${a.status}`).join(', ')}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
