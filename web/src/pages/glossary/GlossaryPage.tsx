import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createColumnHelper } from '@tanstack/react-table';
import { useEffect, useMemo, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { unwrap } from '../../api/errors';
import type { components, paths } from '../../api/schema';
import { useConsole } from '../../shell/context';
import { ErrorView, FieldErrorSummary } from '../../shell/ErrorView';
import { uiState } from '../../state/ui-state';
import { createRequestValidator } from '../clone/validate';
import { ActionButton, Field, requestSchemaOf, useFieldErrors } from '../quality/form';
import { Status } from '../quality/status';
import { VirtualTable } from '../quality/VirtualTable';

type Term = components['schemas']['GlossaryTerm'];
type CreateBody = NonNullable<paths['/api/governance/glossary']['post']['requestBody']>['content']['application/json'];
const col = createColumnHelper<Term>();
const columns = [
  col.accessor('name', {
    header: 'Term',
    cell: (c) => <Link to={`/glossary/${encodeURIComponent(c.row.original.term_id)}`}>{c.getValue()}</Link>,
  }),
  col.accessor((t) => t.abbreviation ?? '', { id: 'abbreviation', header: 'Abbreviation' }),
  col.accessor('domain', { header: 'Domain' }),
  col.accessor('status', { header: 'Status', cell: (c) => <Status value={c.getValue()} /> }),
  col.accessor((t) => t.linked_columns.length, { id: 'links', header: 'Linked columns' }),
  col.accessor('definition', { header: 'Definition' }),
];

type StatusFilter = '' | 'draft' | 'approved' | 'deprecated';
interface Filters {
  status: StatusFilter;
  domain: string;
  q: string;
}
interface Draft {
  name: string;
  definition: string;
  abbreviation: string;
  domain: string;
  owner: string;
  tags: string;
}
const EMPTY: Draft = { name: '', definition: '', abbreviation: '', domain: '', owner: '', tags: '' };

/** /glossary: business terms filtered on the server (status, domain, text), and a new term (draft). */
export function GlossaryPage() {
  const { api, doc } = useConsole();
  const client = useQueryClient();
  const navigate = useNavigate();
  const [filters, setFilters] = useState<Filters>(
    () => uiState.load<Filters>('glossary.filters') ?? { status: '', domain: '', q: '' },
  );
  useEffect(() => uiState.save('glossary.filters', filters), [filters]);
  const [draft, setDraft] = useState<Draft>(() => uiState.load<Draft>('glossary.draft') ?? EMPTY);
  useEffect(() => uiState.save('glossary.draft', draft), [draft]);
  const errors = useFieldErrors();
  const schema = requestSchemaOf(doc, '/api/governance/glossary');
  const validate = useMemo(() => (schema ? createRequestValidator(doc, schema) : null), [doc, schema]);
  const query = {
    ...(filters.status ? { status: filters.status } : {}),
    ...(filters.domain.trim() ? { domain: filters.domain.trim() } : {}),
    ...(filters.q.trim() ? { q: filters.q.trim() } : {}),
  };
  const terms = useQuery({
    queryKey: ['glossary', query],
    queryFn: () => unwrap(api.client.GET('/api/governance/glossary', { params: { query } })),
  });
  const create = useMutation({
    mutationFn: (body: CreateBody) => unwrap(api.client.POST('/api/governance/glossary', { body })),
    onSuccess: (t) => {
      setDraft(EMPTY);
      void client.invalidateQueries({ queryKey: ['glossary'] });
      void navigate(`/glossary/${encodeURIComponent(t.term_id)}`);
    },
    onError: (err) => errors.fromError(err),
  });
  const submit = () => {
    const tags = draft.tags
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const body = {
      name: draft.name.trim(),
      definition: draft.definition.trim(),
      ...(draft.abbreviation.trim() ? { abbreviation: draft.abbreviation.trim() } : {}),
      domain: draft.domain.trim() || 'General',
      ...(draft.owner.trim() ? { owner: draft.owner.trim() } : {}),
      tags,
    };
    const problems = validate?.(body) ?? [];
    if (problems.length) return errors.show(problems);
    errors.clear();
    create.mutate(body);
  };
  const set = (patch: Partial<Draft>) => setDraft((d) => ({ ...d, ...patch }));
  const setF = (patch: Partial<Filters>) => setFilters((f) => ({ ...f, ...patch }));
  return (
    <section aria-labelledby="glossary-title">
      <h1 id="glossary-title">Business glossary</h1>
      <div className="row-actions">
        <label className="field">
          Status
          <select value={filters.status} onChange={(e) => setF({ status: e.target.value as StatusFilter })}>
            <option value="">any</option>
            <option>draft</option>
            <option>approved</option>
            <option>deprecated</option>
          </select>
        </label>
        <label className="field">
          Domain
          <input value={filters.domain} onChange={(e) => setF({ domain: e.target.value })} />
        </label>
        <label className="field">
          Text in name, abbreviation or definition
          <input value={filters.q} onChange={(e) => setF({ q: e.target.value })} />
        </label>
      </div>
      {terms.isError && <ErrorView error={terms.error} onRetry={() => void terms.refetch()} />}
      {terms.isPending && <p role="status">Loading terms…</p>}
      {terms.data && (
        <>
          <p aria-live="polite">
            {terms.data.length} term{terms.data.length === 1 ? '' : 's'}
          </p>
          <VirtualTable
            rows={terms.data}
            columns={columns}
            caption="Glossary terms"
            testId="glossary-terms"
            rowTestId="glossary-row"
            rowKey={(t) => t.term_id}
          />
        </>
      )}
      <form
        noValidate
        aria-labelledby="new-term-title"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <h2 id="new-term-title">New term</h2>
        <FieldErrorSummary details={errors.errors} labelOf={(p) => p} />
        {create.isError && !errors.errors.length && (
          <ErrorView error={create.error} requiredRole="editor" onRetry={submit} />
        )}
        <div className="row-actions">
          <Field name="name" label="Name" errors={errors}>
            {(p) => <input {...p} value={draft.name} onChange={(e) => set({ name: e.target.value })} />}
          </Field>
          <Field name="abbreviation" label="Abbreviation (optional)" errors={errors}>
            {(p) => <input {...p} value={draft.abbreviation} onChange={(e) => set({ abbreviation: e.target.value })} />}
          </Field>
          <Field name="domain" label="Domain (default General)" errors={errors}>
            {(p) => <input {...p} value={draft.domain} onChange={(e) => set({ domain: e.target.value })} />}
          </Field>
          <Field name="owner" label="Owner (optional)" errors={errors}>
            {(p) => <input {...p} value={draft.owner} onChange={(e) => set({ owner: e.target.value })} />}
          </Field>
          <Field name="tags" label="Tags (comma-separated)" errors={errors}>
            {(p) => <input {...p} value={draft.tags} onChange={(e) => set({ tags: e.target.value })} />}
          </Field>
        </div>
        <Field name="definition" label="Definition" errors={errors}>
          {(p) => (
            <textarea {...p} rows={3} value={draft.definition} onChange={(e) => set({ definition: e.target.value })} />
          )}
        </Field>
        <ActionButton type="submit" operation="post /api/governance/glossary" disabled={create.isPending}>
          Create the term (draft)
        </ActionButton>
      </form>
    </section>
  );
}
