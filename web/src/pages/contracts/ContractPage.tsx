import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useParams } from 'react-router';
import { unwrap } from '../../api/errors';
import type { paths } from '../../api/schema';
import { useConsole } from '../../shell/context';
import { ErrorView, FieldErrorSummary } from '../../shell/ErrorView';
import { ConfirmButton } from '../jobs/ConfirmButton';
import { useCan } from '../../shell/roles';
import { ActionButton, Field, useFieldErrors } from '../quality/form';
import { Status } from '../quality/status';

type Validation = paths['/api/governance/odcs/validate/{id}']['post']['responses'][200]['content']['application/json'];
const SECTIONS = ['fundamentals', 'schema', 'quality', 'sla'] as const;

/** A validation's result per table and section, with each violation in words. */
function ValidationView({ v }: { v: Validation }) {
  return (
    <div data-testid="contract-validation" role="status">
      <h3>
        <Status value={v.status} /> — {v.name}@{v.version} ({v.severity})
      </h3>
      {v.results.map((r) => (
        <article key={r.table_fqn} aria-label={`Validation of ${r.table_fqn}`}>
          <h4>
            {r.table_fqn}: <Status value={r.status} />, {r.violation_count} violation
            {r.violation_count === 1 ? '' : 's'}
            {r.drift ? ' (drift)' : ''}
          </h4>
          <ul>
            {SECTIONS.map((s) => {
              const sec = r.sections[s];
              return (
                <li key={s}>
                  {s}: <Status value={sec.passed ? 'passed' : 'failed'} />
                  {sec.skipped.length > 0 && ` (skipped: ${sec.skipped.join(', ')})`}
                  {sec.violations.length > 0 && (
                    <ul>
                      {sec.violations.map((x, i) => (
                        <li key={i}>
                          ✕ {x.column ? `${x.column}: ` : ''}
                          {x.message}
                        </li>
                      ))}
                    </ul>
                  )}
                </li>
              );
            })}
          </ul>
        </article>
      ))}
    </div>
  );
}

/** /contracts/:name: the document, publish, attach, validate, and the stored validations. */
export function ContractPage() {
  const { api } = useConsole();
  const client = useQueryClient();
  const name = useParams().name ?? '';
  const [version, setVersion] = useState('');
  const [attachTo, setAttachTo] = useState('');
  const [validateOn, setValidateOn] = useState('');
  const errors = useFieldErrors();
  const canPublish = useCan('post /api/governance/odcs/{id}/publish');
  const id = version ? `${name}@${version}` : name;
  const contract = useQuery({
    queryKey: ['contract', id],
    queryFn: () => unwrap(api.client.GET('/api/governance/odcs/{id}', { params: { path: { id } } })),
  });
  const validations = useQuery({
    queryKey: ['contract-validations', name],
    queryFn: () => unwrap(api.client.GET('/api/governance/odcs/{id}/validations', { params: { path: { id: name } } })),
  });
  const refresh = () => {
    void client.invalidateQueries({ queryKey: ['contract'] });
    void client.invalidateQueries({ queryKey: ['contracts'] });
    void client.invalidateQueries({ queryKey: ['contract-validations', name] });
  };
  const publish = useMutation({
    mutationFn: () => unwrap(api.client.POST('/api/governance/odcs/{id}/publish', { params: { path: { id: name } } })),
    onSuccess: refresh,
  });
  const attach = useMutation({
    mutationFn: (table_fqn: string) =>
      unwrap(
        api.client.POST('/api/governance/odcs/{id}/attach', {
          params: { path: { id: name } },
          body: { table_fqn },
        }),
      ),
    onSuccess: () => {
      setAttachTo('');
      errors.clear();
      refresh();
    },
    onError: (err) => errors.fromError(err),
  });
  const validate = useMutation({
    mutationFn: () =>
      unwrap(
        api.client.POST('/api/governance/odcs/validate/{id}', {
          params: { path: { id } },
          body: validateOn ? { table_fqn: validateOn } : {},
        }),
      ),
    onSuccess: refresh,
  });
  const c = contract.data;
  const actionError = publish.error ?? validate.error ?? (errors.errors.length ? null : attach.error);
  return (
    <section aria-labelledby="contract-title">
      <h1 id="contract-title">Contract {name}</h1>
      {contract.isError && <ErrorView error={contract.error} onRetry={() => void contract.refetch()} />}
      {contract.isPending && <p role="status">Loading the contract…</p>}
      {actionError && <ErrorView error={actionError} requiredRole="editor" />}
      {c && (
        <>
          <p data-testid="contract-summary">
            <Status value={c.status} /> — showing {c.id}
            {c.immutable ? ' (published, immutable)' : ' (draft)'}; latest version {c.latest_version ?? 'none yet'};
            attached to {c.attached_to.join(', ') || 'no table'}; severity {c.severity}
          </p>
          <div className="row-actions">
            {c.versions.length > 0 && (
              <label className="field">
                Version
                <select value={version} onChange={(e) => setVersion(e.target.value)}>
                  <option value="">newest published (else the draft)</option>
                  {c.versions.map((v) => (
                    <option key={v}>{v}</option>
                  ))}
                </select>
              </label>
            )}
            {c.draft_id && (
              <ConfirmButton
                label="Publish the draft"
                question={`Publish ${name} as a new immutable version? Earlier versions stay readable.`}
                confirmLabel="Publish"
                disabled={publish.isPending}
                can={canPublish}
                onConfirm={() => publish.mutate()}
              />
            )}
          </div>
          <form
            noValidate
            aria-labelledby="validate-title"
            onSubmit={(e) => {
              e.preventDefault();
              validate.mutate();
            }}
          >
            <h2 id="validate-title">Validate</h2>
            <label className="field">
              Table
              <select value={validateOn} onChange={(e) => setValidateOn(e.target.value)}>
                <option value="">every table the contract names</option>
                {c.attached_to.map((t) => (
                  <option key={t}>{t}</option>
                ))}
              </select>
            </label>
            <ActionButton
              type="submit"
              operation="post /api/governance/odcs/validate/{id}"
              disabled={validate.isPending}
            >
              {validate.isPending ? 'Validating…' : `Validate ${c.id}`}
            </ActionButton>
          </form>
          {validate.data && <ValidationView v={validate.data} />}
          <form
            noValidate
            aria-labelledby="attach-title"
            onSubmit={(e) => {
              e.preventDefault();
              if (!attachTo.trim()) return errors.show([{ path: 'table_fqn', message: 'is required' }]);
              attach.mutate(attachTo.trim());
            }}
          >
            <h2 id="attach-title">Attach to a table</h2>
            <FieldErrorSummary details={errors.errors} labelOf={() => 'Table'} />
            <Field name="table_fqn" label="Table (catalog.schema.table)" errors={errors}>
              {(p) => <input {...p} value={attachTo} onChange={(e) => setAttachTo(e.target.value)} />}
            </Field>
            <ActionButton type="submit" operation="post /api/governance/odcs/{id}/attach" disabled={attach.isPending}>
              Attach
            </ActionButton>
          </form>
          <h2>Document</h2>
          <pre tabIndex={0} data-testid="contract-document" aria-label={`Document of ${c.id}`}>
            {JSON.stringify(c.document, null, 2)}
          </pre>
        </>
      )}
      <h2>Validations</h2>
      {validations.isError && <ErrorView error={validations.error} onRetry={() => void validations.refetch()} />}
      {validations.data &&
        (validations.data.length === 0 ? (
          <p>Not validated yet.</p>
        ) : (
          <table data-testid="contract-validations">
            <caption className="skip-link">Stored validations, newest first</caption>
            <thead>
              <tr>
                {['When', 'Version', 'Table', 'Result', 'Violations', 'Trigger', 'By'].map((h) => (
                  <th scope="col" key={h}>
                    {h}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {validations.data.map((v) => (
                <tr key={v.validation_id}>
                  <td>{new Date(v.created_at).toLocaleString()}</td>
                  <td>{v.version}</td>
                  <td>{v.table_fqn}</td>
                  <td>
                    <Status value={v.status} />
                  </td>
                  <td>{v.violation_count}</td>
                  <td>{v.trigger}</td>
                  <td>{v.created_by}</td>
                </tr>
              ))}
            </tbody>
          </table>
        ))}
    </section>
  );
}
