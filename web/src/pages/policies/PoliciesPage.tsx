import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { unwrap } from '../../api/errors';
import type { components } from '../../api/schema';
import { useConsole } from '../../shell/context';
import { ErrorView, FieldErrorSummary } from '../../shell/ErrorView';
import { uiState } from '../../state/ui-state';
import { createRequestValidator } from '../clone/validate';
import { ConfirmButton } from '../jobs/ConfirmButton';
import { useCan } from '../../shell/roles';
import { ActionButton, Field, requestSchemaOf, useFieldErrors } from '../quality/form';

type Policy = components['schemas']['AccessPolicy'];
type Operation = NonNullable<Policy['allowed_operations']>[number];
const OPERATIONS = ['clone', 'sync', 'read', 'write', 'validate'] as const;

interface Draft {
  name: string;
  principals: string;
  sources: string;
  destinations: string;
  schemas: string;
  operations: string[];
  deny: boolean;
  description: string;
}
const EMPTY: Draft = {
  name: '',
  principals: '',
  sources: '*',
  destinations: '*',
  schemas: '*',
  operations: [],
  deny: false,
  description: '',
};
const list = (s: string) =>
  s
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);

const LIST_FIELDS = [
  ['principals', 'principals', 'Principals (users or groups, comma-separated)'],
  ['sources', 'allowed_sources', 'Source catalogs (patterns, * for any)'],
  ['destinations', 'allowed_destinations', 'Destination catalogs (patterns)'],
  ['schemas', 'allowed_schemas', 'Schemas (patterns)'],
] as const;

/** /policies: access policies in evaluation order (deny first), a new one, delete (admin). */
export function PoliciesPage() {
  const { api, doc } = useConsole();
  const client = useQueryClient();
  const [draft, setDraft] = useState<Draft>(() => uiState.load<Draft>('policies.draft') ?? EMPTY);
  useEffect(() => uiState.save('policies.draft', draft), [draft]);
  const errors = useFieldErrors();
  const canDelete = useCan('delete /api/rbac/policies/{name}');
  const schema = requestSchemaOf(doc, '/api/rbac/policies');
  const validate = useMemo(() => (schema ? createRequestValidator(doc, schema) : null), [doc, schema]);
  const policies = useQuery({
    queryKey: ['policies'],
    queryFn: () => unwrap(api.client.GET('/api/rbac/policies')),
  });
  const create = useMutation({
    mutationFn: (body: components['schemas']['AccessPolicyCreate']) =>
      unwrap(api.client.POST('/api/rbac/policies', { body })),
    onSuccess: () => {
      setDraft(EMPTY);
      void client.invalidateQueries({ queryKey: ['policies'] });
    },
    onError: (err) => errors.fromError(err),
  });
  const remove = useMutation({
    mutationFn: (name: string) =>
      unwrap(api.client.DELETE('/api/rbac/policies/{name}', { params: { path: { name } } })),
    onSuccess: () => void client.invalidateQueries({ queryKey: ['policies'] }),
  });
  const submit = () => {
    const body = {
      name: draft.name.trim(),
      principals: list(draft.principals),
      allowed_sources: list(draft.sources),
      allowed_destinations: list(draft.destinations),
      allowed_schemas: list(draft.schemas),
      allowed_operations: (draft.operations.length ? draft.operations : ['*']) as Operation[],
      deny: draft.deny,
      ...(draft.description.trim() ? { description: draft.description.trim() } : {}),
    };
    const problems = validate?.(body) ?? [];
    if (problems.length) return errors.show(problems);
    errors.clear();
    create.mutate(body);
  };
  const set = (patch: Partial<Draft>) => setDraft((d) => ({ ...d, ...patch }));
  return (
    <section aria-labelledby="policies-title">
      <h1 id="policies-title">Access policies</h1>
      <p>Evaluated in this order: deny rules first, then the allow rules naming the caller.</p>
      {remove.isError && <ErrorView error={remove.error} requiredRole="admin" />}
      {policies.isError && <ErrorView error={policies.error} onRetry={() => void policies.refetch()} />}
      {policies.isPending && <p role="status">Loading policies…</p>}
      {policies.data &&
        (policies.data.length === 0 ? (
          <p>No access policy: every caller may do what its role allows.</p>
        ) : (
          <table data-testid="policies">
            <caption className="skip-link">Access policies in evaluation order</caption>
            <thead>
              <tr>
                {['Policy', 'Effect', 'Principals', 'Sources', 'Destinations', 'Schemas', 'Operations', 'Actions'].map(
                  (h) => (
                    <th scope="col" key={h}>
                      {h}
                    </th>
                  ),
                )}
              </tr>
            </thead>
            <tbody>
              {policies.data.map((p) => (
                <tr key={p.name} data-testid="policy-row">
                  <td>
                    {p.name}
                    {p.description ? <div>{p.description}</div> : null}
                  </td>
                  <td>
                    <span data-status={p.deny ? 'deny' : 'allow'}>
                      <span aria-hidden="true">{p.deny ? '⛔' : '✓'}</span> {p.deny ? 'deny' : 'allow'}
                    </span>
                  </td>
                  <td>{p.principals.join(', ')}</td>
                  <td>{(p.allowed_sources ?? ['*']).join(', ')}</td>
                  <td>{(p.allowed_destinations ?? ['*']).join(', ')}</td>
                  <td>{(p.allowed_schemas ?? ['*']).join(', ')}</td>
                  <td>{(p.allowed_operations ?? ['*']).join(', ')}</td>
                  <td>
                    <ConfirmButton
                      label={`Delete ${p.name}`}
                      question={`Delete the access policy ${p.name}? Callers it names are no longer limited by it.`}
                      confirmLabel="Delete the policy"
                      can={canDelete}
                      onConfirm={() => remove.mutate(p.name)}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ))}
      <form
        noValidate
        aria-labelledby="new-policy-title"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <h2 id="new-policy-title">New policy</h2>
        <FieldErrorSummary
          details={errors.errors}
          labelOf={(p) => LIST_FIELDS.find((f) => f[1] === p)?.[2] ?? p.replace(/_/g, ' ')}
        />
        {create.isError && !errors.errors.length && (
          <ErrorView error={create.error} requiredRole="admin" onRetry={submit} />
        )}
        <div className="row-actions">
          <Field name="name" label="Name" errors={errors}>
            {(p) => <input {...p} value={draft.name} onChange={(e) => set({ name: e.target.value })} />}
          </Field>
          {LIST_FIELDS.map(([key, field, label]) => (
            <Field key={key} name={field} label={label} errors={errors}>
              {(p) => <input {...p} value={draft[key]} onChange={(e) => set({ [key]: e.target.value })} />}
            </Field>
          ))}
        </div>
        <fieldset id="field-allowed_operations" tabIndex={-1}>
          <legend>Operations (none checked: all)</legend>
          {OPERATIONS.map((op) => (
            <div className="field checkbox" key={op}>
              <input
                type="checkbox"
                id={`policy-op-${op}`}
                checked={draft.operations.includes(op)}
                onChange={(e) =>
                  set({
                    operations: e.target.checked ? [...draft.operations, op] : draft.operations.filter((o) => o !== op),
                  })
                }
              />
              <label htmlFor={`policy-op-${op}`}>{op}</label>
            </div>
          ))}
        </fieldset>
        <div className="field checkbox">
          <input
            type="checkbox"
            id="field-deny"
            checked={draft.deny}
            onChange={(e) => set({ deny: e.target.checked })}
          />
          <label htmlFor="field-deny">Deny (refuse what it covers, before any allow rule)</label>
        </div>
        <Field name="description" label="Description (optional)" errors={errors}>
          {(p) => <input {...p} value={draft.description} onChange={(e) => set({ description: e.target.value })} />}
        </Field>
        <ActionButton type="submit" operation="post /api/rbac/policies" disabled={create.isPending}>
          Create the policy
        </ActionButton>
      </form>
    </section>
  );
}
