import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { unwrap } from '../../api/errors';
import type { components } from '../../api/schema';
import { useConsole } from '../../shell/context';
import { ErrorView } from '../../shell/ErrorView';
import { ConfirmButton } from '../jobs/ConfirmButton';
import { CallError, fieldErrors, StatusWord, TextField } from '../compare/ui';

type Run = components['schemas']['PipelineRun'];
const FINAL = ['completed', 'failed', 'cancelled'];
const when = (t: string | null) => (t ? new Date(t).toLocaleString() : '—');

/** Pipelines: list, create from a template (with per-step config overrides), run, and their runs live with cancel. */
export function Pipelines() {
  const { api } = useConsole();
  const qc = useQueryClient();
  const [template, setTemplate] = useState('');
  const [name, setName] = useState('');
  const [overrides, setOverrides] = useState('{}');
  const [overridesError, setOverridesError] = useState('');
  const list = useQuery({ queryKey: ['pipelines'], queryFn: () => unwrap(api.client.GET('/api/pipeline/pipelines')) });
  const templates = useQuery({
    queryKey: ['pipeline-templates'],
    queryFn: () => unwrap(api.client.GET('/api/pipeline/templates')),
  });
  const runs = useQuery({
    queryKey: ['pipeline-runs'],
    queryFn: () => unwrap(api.client.GET('/api/pipeline/runs', { params: { query: { limit: 50 } } })),
    refetchInterval: (q) => (q.state.data?.runs.some((r) => !FINAL.includes(r.status)) ? 2_000 : 10_000),
  });
  const chosen = templates.data?.templates.find(
    (t) => t.template_name === (template || templates.data?.templates[0]?.template_name),
  );
  const create = useMutation({
    mutationFn: (o: Record<string, Record<string, unknown>>) =>
      unwrap(
        api.client.POST('/api/pipeline/templates/{template_name}/create', {
          params: { path: { template_name: chosen?.template_name ?? '' } },
          body: { ...(name ? { name } : {}), overrides: o },
        }),
      ),
    onSuccess: () => {
      setName('');
      void qc.invalidateQueries({ queryKey: ['pipelines'] });
    },
  });
  const run = useMutation({
    mutationFn: (id: string) =>
      unwrap(api.client.POST('/api/pipeline/pipelines/{pipeline_id}/run', { params: { path: { pipeline_id: id } } })),
    onSettled: () => qc.invalidateQueries({ queryKey: ['pipeline-runs'] }),
  });
  const cancel = useMutation({
    mutationFn: (runId: string) =>
      unwrap(api.client.POST('/api/pipeline/runs/{run_id}/cancel', { params: { path: { run_id: runId } } })),
    onSettled: () => qc.invalidateQueries({ queryKey: ['pipeline-runs'] }),
  });
  const errs = fieldErrors(create.error);
  return (
    <section aria-labelledby="pipelines-title">
      <h2 id="pipelines-title">Pipelines</h2>
      {list.isError && <ErrorView error={list.error} onRetry={() => void list.refetch()} />}
      {list.data && list.data.pipelines.length === 0 && <p>No pipelines yet.</p>}
      {list.data && list.data.pipelines.length > 0 && (
        <table data-testid="pipelines-table">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Steps</th>
              <th scope="col">Schedule</th>
              <th scope="col">Run</th>
            </tr>
          </thead>
          <tbody>
            {list.data.pipelines.map((p) => (
              <tr key={p.pipeline_id} data-testid="pipeline-row">
                <td>{p.name}</td>
                <td>{p.steps.map((s) => `${s.name} (${s.type})`).join(' → ')}</td>
                <td>{p.schedule ? `${p.schedule.cron} ${p.schedule.timezone ?? 'UTC'}` : 'on demand'}</td>
                <td>
                  <button type="button" disabled={run.isPending} onClick={() => run.mutate(p.pipeline_id)}>
                    Run {p.name}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {run.isError && <ErrorView error={run.error} />}
      {run.data && (
        <p role="status">
          Run queued: <Link to={`/jobs/${encodeURIComponent(run.data.job_id)}`}>{run.data.run_id}</Link>
        </p>
      )}
      <h3>Runs</h3>
      {runs.isError && <ErrorView error={runs.error} onRetry={() => void runs.refetch()} />}
      {cancel.isError && <ErrorView error={cancel.error} />}
      {cancel.data && <p role="status">{cancel.data.message}</p>}
      {runs.data && runs.data.runs.length === 0 && <p>No runs yet.</p>}
      {runs.data && runs.data.runs.length > 0 && (
        <table data-testid="pipeline-runs">
          <caption>The last {runs.data.runs.length} runs, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Run</th>
              <th scope="col">Pipeline</th>
              <th scope="col">Status</th>
              <th scope="col">Steps</th>
              <th scope="col">Started / ended</th>
              <th scope="col">Cancel</th>
            </tr>
          </thead>
          <tbody>
            {runs.data.runs.map((r) => (
              <RunRow key={r.run_id} r={r} onCancel={() => cancel.mutate(r.run_id)} />
            ))}
          </tbody>
        </table>
      )}
      <form
        aria-labelledby="pipeline-new-title"
        onSubmit={(e) => {
          e.preventDefault();
          try {
            const o = JSON.parse(overrides || '{}') as Record<string, Record<string, unknown>>;
            setOverridesError('');
            create.mutate(o);
          } catch (err) {
            setOverridesError(`not JSON: ${(err as Error).message}`);
            document.getElementById('pipeline-overrides')?.focus();
          }
        }}
      >
        <h3 id="pipeline-new-title">New pipeline from a template</h3>
        {templates.isError && <ErrorView error={templates.error} />}
        <div className="row-actions">
          <div className="field">
            <label htmlFor="pipeline-template">Pipeline template</label>
            <select
              id="pipeline-template"
              value={chosen?.template_name ?? ''}
              onChange={(e) => setTemplate(e.target.value)}
            >
              {templates.data?.templates.map((t) => (
                <option key={t.template_name}>{t.template_name}</option>
              ))}
            </select>
          </div>
          <TextField
            id="pipeline-name"
            label="Pipeline name"
            value={name}
            error={errs.name}
            onChange={setName}
            hint="default: the template's"
          />
        </div>
        {chosen && (
          <p className="marker">
            {chosen.description}:{' '}
            {chosen.pipeline.steps.map((s) => `${s.name} ${JSON.stringify(s.config ?? {})}`).join(' → ')}
          </p>
        )}
        <div className="field">
          <label htmlFor="pipeline-overrides">Step config overrides (JSON: step name → config fields)</label>
          <textarea
            id="pipeline-overrides"
            rows={3}
            value={overrides}
            aria-invalid={overridesError || errs.overrides ? true : undefined}
            aria-describedby={overridesError || errs.overrides ? 'pipeline-overrides-error' : undefined}
            onChange={(e) => setOverrides(e.target.value)}
          />
          {(overridesError || errs.overrides) && (
            <span id="pipeline-overrides-error" className="field-error">
              ⚠ {overridesError || errs.overrides}
            </span>
          )}
        </div>
        <button type="submit" disabled={create.isPending || !chosen}>
          Create the pipeline
        </button>
      </form>
      <CallError error={create.error} fields={['name', 'overrides']} />
    </section>
  );
}

function RunRow({ r, onCancel }: { r: Run; onCancel: () => void }) {
  const running = !FINAL.includes(r.status);
  return (
    <tr data-testid="pipeline-run">
      <td>
        <Link to={`/jobs/${encodeURIComponent(r.job_id)}`}>{r.run_id}</Link>
      </td>
      <td>{r.pipeline_name}</td>
      <td>
        <StatusWord status={r.status} />
        {r.error ? <span className="marker"> {r.error}</span> : null}
      </td>
      <td>
        <ol>
          {r.steps.map((s) => (
            <li key={s.name}>
              {s.name}: <StatusWord status={s.status} />
              {s.child_job_id && (
                <>
                  {' '}
                  <Link to={`/jobs/${encodeURIComponent(s.child_job_id)}`}>job</Link>
                </>
              )}
            </li>
          ))}
        </ol>
      </td>
      <td>
        {when(r.created_at)} / {when(r.completed_at)}
      </td>
      <td>
        {running && (
          <ConfirmButton
            label={`Cancel run ${r.run_id}`}
            question={`Cancel run ${r.run_id} of ${r.pipeline_name}? Its running step's job is cancelled and the rest skipped.`}
            confirmLabel="Cancel the run"
            onConfirm={onCancel}
          />
        )}
      </td>
    </tr>
  );
}
