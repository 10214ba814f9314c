import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useParams } from 'react-router';
import { unwrap } from '../../api/errors';
import { useConsole } from '../../shell/context';
import { ErrorView, FieldErrorSummary } from '../../shell/ErrorView';
import { ActionButton, Field, useFieldErrors } from '../quality/form';
import { Status } from '../quality/status';

/** /glossary/:termId: a term, approve or deprecate it, link columns, and its change history. */
export function TermPage() {
  const { api } = useConsole();
  const client = useQueryClient();
  const termId = useParams().termId ?? '';
  const [links, setLinks] = useState('');
  const errors = useFieldErrors();
  const path = { params: { path: { term_id: termId } } };
  const term = useQuery({
    queryKey: ['glossary-term', termId],
    queryFn: () => unwrap(api.client.GET('/api/governance/glossary/{term_id}', path)),
  });
  const done = () => {
    void client.invalidateQueries({ queryKey: ['glossary-term', termId] });
    void client.invalidateQueries({ queryKey: ['glossary'] });
  };
  const approve = useMutation({
    mutationFn: () => unwrap(api.client.POST('/api/governance/glossary/{term_id}/approve', path)),
    onSuccess: done,
  });
  const deprecate = useMutation({
    mutationFn: () => unwrap(api.client.POST('/api/governance/glossary/{term_id}/deprecate', path)),
    onSuccess: done,
  });
  const link = useMutation({
    mutationFn: (column_fqns: string[]) =>
      unwrap(api.client.POST('/api/governance/glossary/{term_id}/links', { ...path, body: { column_fqns } })),
    onSuccess: () => {
      setLinks('');
      errors.clear();
      done();
    },
    onError: (err) => errors.fromError(err),
  });
  const t = term.data;
  const statusError = approve.error ?? deprecate.error;
  return (
    <section aria-labelledby="term-title">
      <h1 id="term-title">{t ? t.name : 'Glossary term'}</h1>
      {term.isError && <ErrorView error={term.error} onRetry={() => void term.refetch()} />}
      {term.isPending && <p role="status">Loading the term…</p>}
      {statusError && <ErrorView error={statusError} requiredRole="steward" />}
      {t && (
        <>
          <dl data-testid="term-details">
            <dt>Status</dt>
            <dd>
              <Status value={t.status} />
            </dd>
            <dt>Definition</dt>
            <dd>{t.definition}</dd>
            {t.abbreviation && (
              <>
                <dt>Abbreviation</dt>
                <dd>{t.abbreviation}</dd>
              </>
            )}
            <dt>Domain</dt>
            <dd>{t.domain}</dd>
            <dt>Owner</dt>
            <dd>{t.owner ?? 'none'}</dd>
            <dt>Tags</dt>
            <dd>{t.tags.join(', ') || 'none'}</dd>
          </dl>
          <div className="row-actions">
            <ActionButton
              operation="post /api/governance/glossary/{term_id}/approve"
              disabled={t.status !== 'draft' || approve.isPending}
              onClick={() => approve.mutate()}
            >
              Approve
            </ActionButton>
            <ActionButton
              operation="post /api/governance/glossary/{term_id}/deprecate"
              disabled={t.status !== 'approved' || deprecate.isPending}
              onClick={() => deprecate.mutate()}
            >
              Deprecate
            </ActionButton>
          </div>
          <h2>Linked columns ({t.linked_columns.length})</h2>
          {t.linked_columns.length === 0 ? (
            <p>No column is linked.</p>
          ) : (
            <ul data-testid="term-links">
              {t.linked_columns.map((c) => (
                <li key={c}>{c}</li>
              ))}
            </ul>
          )}
          <form
            noValidate
            aria-labelledby="link-title"
            onSubmit={(e) => {
              e.preventDefault();
              const fqns = links
                .split(/[\s,]+/)
                .map((s) => s.trim())
                .filter(Boolean);
              if (!fqns.length) return errors.show([{ path: 'column_fqns', message: 'name at least one column' }]);
              const bad = fqns.find((f) => f.split('.').length !== 4);
              if (bad)
                return errors.show([{ path: 'column_fqns', message: `${bad} is not catalog.schema.table.column` }]);
              link.mutate(fqns);
            }}
          >
            <h3 id="link-title">Link columns</h3>
            <FieldErrorSummary details={errors.errors} labelOf={() => 'Columns'} />
            {link.isError && !errors.errors.length && <ErrorView error={link.error} requiredRole="editor" />}
            <Field
              name="column_fqns"
              label="Columns (catalog.schema.table.column, separated by commas)"
              errors={errors}
            >
              {(p) => <input {...p} value={links} onChange={(e) => setLinks(e.target.value)} />}
            </Field>
            <ActionButton
              type="submit"
              operation="post /api/governance/glossary/{term_id}/links"
              disabled={link.isPending}
            >
              Link
            </ActionButton>
          </form>
          <h2>History</h2>
          <ol data-testid="term-history">
            {t.history.map((h, i) => (
              <li key={i}>
                {new Date(h.changed_at).toLocaleString()}: {h.change_type} by {h.changed_by}
              </li>
            ))}
          </ol>
        </>
      )}
    </section>
  );
}
