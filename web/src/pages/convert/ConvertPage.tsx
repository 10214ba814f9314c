import { useMutation } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { ApiError, fieldOfPath, unwrap, type ErrorDetail } from '../../api/errors';
import type { components } from '../../api/schema';
import { useConsole } from '../../shell/context';
import { ErrorView, FieldErrorSummary } from '../../shell/ErrorView';
import { RoleNote, useCan } from '../../shell/roles';
import { uiState } from '../../state/ui-state';
import type { JsonSchema } from '../clone/fields';
import { createRequestValidator } from '../clone/validate';

type Format = 'DELTA' | 'ICEBERG' | 'PARQUET' | 'HUDI';
const FORMATS: Format[] = ['DELTA', 'ICEBERG', 'PARQUET', 'HUDI'];
type Result = components['schemas']['ConvertResult'];

interface Form {
  targets: { fqn: string; source_format: Format; target_format: Format }[];
  confirm_destructive: boolean;
  iceberg_physical: boolean;
  keep_backup: boolean;
  dry_run: boolean;
}
const emptyForm: Form = {
  targets: [{ fqn: '', source_format: 'PARQUET', target_format: 'DELTA' }],
  confirm_destructive: false,
  iceberg_physical: false,
  keep_backup: true,
  dry_run: true,
};
const OPTIONS = [
  ['dry_run', 'Dry run (plan the statements, change nothing)'],
  ['keep_backup', 'Keep a backup of each table'],
  ['confirm_destructive', 'Confirm destructive conversions'],
  ['iceberg_physical', 'Write Iceberg physically (not UniForm metadata)'],
] as const;

/** /convert (the old /convert-to-delta answers 301 here): convert tables between formats, results per table. */
export function ConvertPage() {
  const { api, doc } = useConsole();
  const canConvert = useCan('post /api/convert-to-delta');
  const [form, setForm] = useState<Form>(() => uiState.load<Form>('convert.form') ?? emptyForm);
  useEffect(() => uiState.save('convert.form', form), [form]);
  const [errors, setErrors] = useState<ErrorDetail[]>([]);
  const focusField = useRef<string | null>(null);
  useEffect(() => {
    const el = focusField.current && document.getElementById(`field-${focusField.current}`);
    if (el) {
      el.focus();
      focusField.current = null;
    }
  });
  const schema = (
    doc.paths?.['/api/convert-to-delta']?.post as
      { requestBody?: { content?: Record<string, { schema?: JsonSchema }> } } | undefined
  )?.requestBody?.content?.['application/json']?.schema;
  const validate = useMemo(() => (schema ? createRequestValidator(doc, schema) : null), [doc, schema]);
  const show = (details: ErrorDetail[]) => {
    setErrors(details);
    focusField.current = details[0]?.path ?? null;
  };
  const convert = useMutation({
    mutationFn: (body: Form) => unwrap(api.client.POST('/api/convert-to-delta', { body })),
    onError: (err) => {
      if (err instanceof ApiError && err.info.details.length)
        show(err.info.details.map((d) => ({ path: fieldOfPath(d.path), message: d.message })));
    },
  });
  const errorAt = (name: string) => errors.find((e) => e.path === name)?.message;
  const setTarget = (i: number, patch: Partial<Form['targets'][number]>) =>
    setForm((f) => ({ ...f, targets: f.targets.map((t, k) => (k === i ? { ...t, ...patch } : t)) }));

  return (
    <section aria-labelledby="convert-title">
      <h1 id="convert-title">Convert table formats</h1>
      <FieldErrorSummary details={errors} labelOf={(p) => (p === 'targets' ? 'Tables' : p.replace(/_/g, ' '))} />
      {convert.isError && !(convert.error instanceof ApiError && convert.error.info.details.length) && (
        <ErrorView
          error={convert.error}
          requiredRole={canConvert.need ?? undefined}
          onRetry={() => convert.mutate(form)}
        />
      )}
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          const problems = validate?.(form as unknown as Record<string, unknown>) ?? [];
          if (problems.length) return show(problems);
          setErrors([]);
          convert.mutate(form);
        }}
      >
        <fieldset>
          <legend>Tables</legend>
          {form.targets.map((t, i) => (
            <div className="row-actions" key={i}>
              <div className="field">
                <label htmlFor={i === 0 ? 'field-targets' : `target-${i}-fqn`}>
                  Table {i + 1} (catalog.schema.table)
                </label>
                <input
                  id={i === 0 ? 'field-targets' : `target-${i}-fqn`}
                  value={t.fqn}
                  aria-invalid={i === 0 && errorAt('targets') ? true : undefined}
                  aria-describedby={i === 0 && errorAt('targets') ? 'targets-error' : undefined}
                  onChange={(e) => setTarget(i, { fqn: e.target.value })}
                />
                {i === 0 && errorAt('targets') && (
                  <span id="targets-error" className="field-error">
                    ⚠ {errorAt('targets')}
                  </span>
                )}
              </div>
              <div className="field">
                <label htmlFor={`target-${i}-source`}>Current format</label>
                <select
                  id={`target-${i}-source`}
                  value={t.source_format}
                  onChange={(e) => setTarget(i, { source_format: e.target.value as Format })}
                >
                  {FORMATS.map((f) => (
                    <option key={f}>{f}</option>
                  ))}
                </select>
              </div>
              <div className="field">
                <label htmlFor={`target-${i}-target`}>New format</label>
                <select
                  id={`target-${i}-target`}
                  value={t.target_format}
                  onChange={(e) => setTarget(i, { target_format: e.target.value as Format })}
                >
                  {FORMATS.map((f) => (
                    <option key={f}>{f}</option>
                  ))}
                </select>
              </div>
              {form.targets.length > 1 && (
                <button
                  type="button"
                  onClick={() => setForm((f) => ({ ...f, targets: f.targets.filter((_, k) => k !== i) }))}
                >
                  Remove table {i + 1}
                </button>
              )}
            </div>
          ))}
          <button
            type="button"
            onClick={() =>
              setForm((f) => ({
                ...f,
                targets: [...f.targets, { fqn: '', source_format: 'PARQUET', target_format: 'DELTA' }],
              }))
            }
          >
            Add a table
          </button>
        </fieldset>
        <fieldset>
          <legend>Options</legend>
          {OPTIONS.map(([name, label]) => (
            <div className="field checkbox" key={name}>
              <input
                type="checkbox"
                id={`field-${name}`}
                checked={form[name]}
                onChange={(e) => setForm((f) => ({ ...f, [name]: e.target.checked }))}
              />
              <label htmlFor={`field-${name}`}>{label}</label>
            </div>
          ))}
        </fieldset>
        <button
          type="submit"
          disabled={convert.isPending || !canConvert.allowed}
          aria-describedby={canConvert.allowed ? undefined : 'convert-role-note'}
        >
          {form.dry_run ? 'Plan the conversion' : 'Convert'}
        </button>
        <RoleNote can={canConvert} id="convert-role-note" />
      </form>
      {convert.data && (
        <div data-testid="convert-results">
          <h2>
            {convert.data.dry_run ? 'Plan' : 'Results'}: {convert.data.converted} converted, {convert.data.failed}{' '}
            failed, {convert.data.skipped} skipped of {convert.data.total}
          </h2>
          {convert.data.results.map((r: Result) => (
            <article key={r.fqn} aria-label={r.fqn}>
              <h3>
                {r.fqn}: {r.source_format} → {r.destination_format} — {r.status}
                {r.strategy_used ? ` (${r.strategy_used})` : ''}
              </h3>
              {r.error && <p className="error-box">{r.error}</p>}
              {r.warnings.map((w) => (
                <p key={w}>⚠ {w}</p>
              ))}
              <ol>
                {r.steps.map((s, k) => (
                  <li key={k}>
                    {s.label} — {s.status}
                    <pre tabIndex={0}>{s.statement}</pre>
                  </li>
                ))}
              </ol>
            </article>
          ))}
        </div>
      )}
    </section>
  );
}
