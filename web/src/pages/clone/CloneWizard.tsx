import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { ApiError, fieldOfPath, unwrap, type ErrorDetail } from '../../api/errors';
import { useConsole } from '../../shell/context';
import { ErrorView, FieldErrorSummary } from '../../shell/ErrorView';
import { RoleNote, useCan } from '../../shell/roles';
import { uiState } from '../../state/ui-state';
import { CatalogPicker } from './CatalogPicker';
import { DRAFT_KEY, emptyDraft, type CloneDraft } from './draft';
import { FieldControl } from './FieldControl';
import { cloneFields, cloneRequestSchema, formatFieldValue, labelOf, parseFieldValue, type CloneField } from './fields';
import { ReviewStep } from './ReviewStep';
import { buildCloneRequest, templateFieldValues } from './template-values';
import { createRequestValidator } from './validate';

const STEPS = ['Source, destination and template', 'Options', 'Review and submit'];
const STEP_ONE = ['source_catalog', 'destination_catalog', 'template'];
const stepOf = (field: string) => (STEP_ONE.includes(field) ? 0 : 1);

/** /clone — every field of the POST /api/clone request schema, grouped; review with estimate and dry run. */
export function CloneWizard() {
  const { api, doc } = useConsole();
  const canClone = useCan('post /api/clone');
  const navigate = useNavigate();
  const schema = cloneRequestSchema(doc);
  const fields = useMemo(() => (schema ? cloneFields(schema) : []), [schema]);
  const validate = useMemo(() => (schema ? createRequestValidator(doc, schema) : null), [doc, schema]);
  const [draft, setDraft] = useState<CloneDraft>(() => uiState.load<CloneDraft>(DRAFT_KEY) ?? emptyDraft);
  useEffect(() => uiState.save(DRAFT_KEY, draft), [draft]);
  const [errors, setErrors] = useState<ErrorDetail[]>([]);
  const headingRef = useRef<HTMLHeadingElement>(null);

  const catalogs = useQuery({ queryKey: ['catalogs'], queryFn: () => unwrap(api.client.GET('/api/catalogs')) });
  const templates = useQuery({ queryKey: ['templates'], queryFn: () => unwrap(api.client.GET('/api/templates')) });
  const template = useQuery({
    queryKey: ['template', draft.template],
    enabled: Boolean(draft.template),
    queryFn: () => unwrap(api.client.GET('/api/templates/{name}', { params: { path: { name: draft.template } } })),
  });
  const fromTemplate = useMemo(
    () =>
      draft.template && template.data
        ? templateFieldValues(
            template.data,
            fields.map((f) => f.name),
          )
        : {},
    [draft.template, template.data, fields],
  );

  const edited = new Set(draft.edited);
  const textOf = (f: CloneField): string | boolean =>
    edited.has(f.name)
      ? (draft.texts[f.name] ?? formatFieldValue(f, undefined))
      : formatFieldValue(f, fromTemplate[f.name]);
  const originOf = (f: CloneField) =>
    edited.has(f.name) ? ('edited' as const) : f.name in fromTemplate ? ('template' as const) : null;
  const setText = (name: string, value: string | boolean) =>
    setDraft((d) => ({
      ...d,
      texts: { ...d.texts, [name]: value },
      edited: d.edited.includes(name) ? d.edited : [...d.edited, name],
    }));
  const errorAt = (name: string) => errors.find((e) => e.path === name)?.message;

  /** The request from the user's edits (the template's own values stay with the server, which applies it). */
  const build = (): { body: Record<string, unknown>; problems: ErrorDetail[] } => {
    const edits: Record<string, unknown> = {};
    const problems: ErrorDetail[] = [];
    for (const f of fields) {
      if (!edited.has(f.name) || f.name === 'template') continue;
      try {
        edits[f.name] = parseFieldValue(f, draft.texts[f.name] ?? '');
      } catch (err) {
        problems.push({ path: f.name, message: (err as Error).message });
      }
    }
    const body = buildCloneRequest(edits, draft.template || null);
    return { body, problems: problems.length ? problems : (validate?.(body) ?? []) };
  };

  // Focus moves once the step holding the field has rendered.
  const focusField = useRef<string | null>(null);
  useEffect(() => {
    const el = focusField.current && document.getElementById(`field-${focusField.current}`);
    if (el) {
      el.focus();
      focusField.current = null;
    }
  });
  const focusFirst = (details: ErrorDetail[]) => {
    const first = details[0];
    if (!first) return;
    setDraft((d) => ({ ...d, step: stepOf(first.path) }));
    focusField.current = first.path;
  };
  const showErrors = (details: ErrorDetail[]) => {
    setErrors(details);
    focusFirst(details);
  };

  const submit = useMutation({
    mutationFn: (body: Record<string, unknown>) => unwrap(api.client.POST('/api/clone', { body: body as never })),
    onSuccess: (accepted) => {
      uiState.remove(DRAFT_KEY);
      void navigate(`/jobs/${encodeURIComponent(accepted.job_id)}`);
    },
    onError: (err) => {
      if (err instanceof ApiError && err.info.details.length) {
        showErrors(err.info.details.map((d) => ({ path: fieldOfPath(d.path), message: d.message })));
      }
    },
  });

  const goTo = (step: number) => {
    if (step > draft.step) {
      const { problems } = build();
      const blocking = problems.filter((p) => stepOf(p.path) <= Math.min(step, 1));
      if (blocking.length) return showErrors(blocking);
    }
    setErrors([]);
    setDraft((d) => ({ ...d, step }));
    requestAnimationFrame(() => headingRef.current?.focus());
  };

  if (!schema) return <p role="alert">The server's OpenAPI document has no POST /api/clone request schema.</p>;
  const names = (catalogs.data?.catalogs ?? []).map((c) => c.name);
  const byGroup = new Map<string, CloneField[]>();
  for (const f of fields) {
    if (STEP_ONE.includes(f.name)) continue;
    byGroup.set(f.group, [...(byGroup.get(f.group) ?? []), f]);
  }
  const summaryLabel = (p: string) => fields.find((f) => f.name === p)?.label ?? labelOf(p);

  return (
    <section aria-labelledby="clone-title">
      <h1 id="clone-title">Clone a catalog</h1>
      <ol className="steps" aria-label="Steps">
        {STEPS.map((s, i) => (
          <li key={s} aria-current={i === draft.step ? 'step' : undefined}>
            {i === draft.step ? <strong>{s}</strong> : s}
          </li>
        ))}
      </ol>
      <h2 ref={headingRef} tabIndex={-1}>
        Step {draft.step + 1}: {STEPS[draft.step]}
      </h2>
      <FieldErrorSummary details={errors} labelOf={summaryLabel} />
      {submit.isError && !(submit.error instanceof ApiError && submit.error.info.details.length) && (
        <ErrorView
          error={submit.error}
          requiredRole={canClone.need ?? undefined}
          onRetry={() => submit.mutate(build().body)}
        />
      )}
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          if (draft.step < 2) return goTo(draft.step + 1);
          const { body, problems } = build();
          if (problems.length) return showErrors(problems);
          submit.mutate(body);
        }}
      >
        {draft.step === 0 && (
          <>
            {catalogs.isError && <ErrorView error={catalogs.error} onRetry={() => void catalogs.refetch()} />}
            <CatalogPicker
              name="source_catalog"
              label="Source catalog"
              catalogs={names}
              value={String(draft.texts.source_catalog ?? '')}
              error={errorAt('source_catalog')}
              onChange={(v) => setText('source_catalog', v)}
            />
            <CatalogPicker
              name="destination_catalog"
              label="Destination catalog"
              catalogs={names}
              value={String(draft.texts.destination_catalog ?? '')}
              error={errorAt('destination_catalog')}
              hint="A new name creates the catalog."
              onChange={(v) => setText('destination_catalog', v)}
            />
            <div className="field">
              <label htmlFor="field-template">Template</label>
              <select
                id="field-template"
                value={draft.template}
                aria-describedby="template-hint"
                onChange={(e) => setDraft((d) => ({ ...d, template: e.target.value }))}
              >
                <option value="">(none)</option>
                {templates.data?.map((t) => (
                  <option key={t.name} value={t.name}>
                    {t.name} — {t.description}
                  </option>
                ))}
              </select>
              <span id="template-hint" className="marker">
                Fields the template sets are marked; your edits win.
              </span>
            </div>
            {templates.isError && <ErrorView error={templates.error} onRetry={() => void templates.refetch()} />}
          </>
        )}
        {draft.step === 1 &&
          [...byGroup].map(([group, list]) => (
            <fieldset key={group}>
              <legend>{group}</legend>
              {list.map((f) => (
                <FieldControl
                  key={f.name}
                  field={f}
                  value={textOf(f)}
                  origin={originOf(f)}
                  error={errorAt(f.name)}
                  onChange={(v) => setText(f.name, v)}
                />
              ))}
            </fieldset>
          ))}
        {draft.step === 2 && <ReviewStep body={build().body} />}
        <div className="row-actions">
          {draft.step > 0 && (
            <button type="button" onClick={() => goTo(draft.step - 1)}>
              Back
            </button>
          )}
          <button
            type="submit"
            disabled={submit.isPending || (draft.step === 2 && !canClone.allowed)}
            aria-describedby={draft.step === 2 && !canClone.allowed ? 'clone-role-note' : undefined}
          >
            {draft.step < 2 ? 'Next' : submit.isPending ? 'Submitting…' : 'Start the clone'}
          </button>
          {draft.step === 2 && <RoleNote can={canClone} id="clone-role-note" />}
        </div>
      </form>
    </section>
  );
}
