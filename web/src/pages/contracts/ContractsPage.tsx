import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createColumnHelper } from '@tanstack/react-table';
import { useEffect, useMemo, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { unwrap } from '../../api/errors';
import type { paths } from '../../api/schema';
import { useConsole } from '../../shell/context';
import { ErrorView, FieldErrorSummary } from '../../shell/ErrorView';
import { uiState } from '../../state/ui-state';
import { createRequestValidator } from '../clone/validate';
import { ActionButton, Field, requestSchemaOf, useFieldErrors } from '../quality/form';
import { Status } from '../quality/status';
import { VirtualTable } from '../quality/VirtualTable';

type Contract = paths['/api/governance/odcs']['get']['responses'][200]['content']['application/json'][number];
const col = createColumnHelper<Contract>();
const columns = [
  col.accessor('name', {
    header: 'Contract',
    cell: (c) => <Link to={`/contracts/${encodeURIComponent(c.getValue())}`}>{c.getValue()}</Link>,
  }),
  col.accessor('status', { header: 'Status', cell: (c) => <Status value={c.getValue()} /> }),
  col.accessor((c) => c.latest_version ?? 'unpublished', { id: 'version', header: 'Latest version' }),
  col.accessor((c) => c.attached_to.join(', ') || 'none', { id: 'attached', header: 'Attached to' }),
  col.accessor('severity', { header: 'Severity', cell: (c) => <Status value={c.getValue()} /> }),
  col.accessor('updated_at', { header: 'Updated', cell: (c) => new Date(c.getValue()).toLocaleString() }),
];

interface Draft {
  catalog: string;
  schema: string;
  table: string;
  name: string;
}

/** /contracts: data contracts (ODCS) by name, and a draft generated from a table. */
export function ContractsPage() {
  const { api, doc } = useConsole();
  const client = useQueryClient();
  const navigate = useNavigate();
  const [draft, setDraft] = useState<Draft>(
    () => uiState.load<Draft>('contracts.generate') ?? { catalog: '', schema: '', table: '', name: '' },
  );
  useEffect(() => uiState.save('contracts.generate', draft), [draft]);
  const [text, setText] = useState('');
  const errors = useFieldErrors();
  const schema = requestSchemaOf(doc, '/api/governance/odcs/generate');
  const validate = useMemo(() => (schema ? createRequestValidator(doc, schema) : null), [doc, schema]);
  const list = useQuery({
    queryKey: ['contracts'],
    queryFn: () => unwrap(api.client.GET('/api/governance/odcs')),
  });
  const generate = useMutation({
    mutationFn: (body: { catalog: string; schema: string; table: string; name?: string }) =>
      unwrap(api.client.POST('/api/governance/odcs/generate', { body: { ...body, save: true } })),
    onSuccess: (c) => {
      void client.invalidateQueries({ queryKey: ['contracts'] });
      void navigate(`/contracts/${encodeURIComponent(c.name)}`);
    },
    onError: (err) => errors.fromError(err),
  });
  const submit = () => {
    const body = {
      catalog: draft.catalog.trim(),
      schema: draft.schema.trim(),
      table: draft.table.trim(),
      ...(draft.name.trim() ? { name: draft.name.trim() } : {}),
    };
    const problems = validate?.(body) ?? [];
    if (problems.length) return errors.show(problems);
    errors.clear();
    generate.mutate(body);
  };
  const set = (patch: Partial<Draft>) => setDraft((d) => ({ ...d, ...patch }));
  return (
    <section aria-labelledby="contracts-title">
      <h1 id="contracts-title">Data contracts</h1>
      {list.isError && <ErrorView error={list.error} onRetry={() => void list.refetch()} />}
      {list.isPending && <p role="status">Loading contracts…</p>}
      {list.data && (
        <>
          <label className="field">
            Search contracts
            <input value={text} onChange={(e) => setText(e.target.value)} />
          </label>
          <p aria-live="polite">
            {list.data.length} contract{list.data.length === 1 ? '' : 's'}
          </p>
          <VirtualTable
            rows={list.data}
            columns={columns}
            caption="Data contracts"
            filter={text}
            testId="contracts"
            rowTestId="contract-row"
            rowKey={(c) => c.name}
          />
        </>
      )}
      <form
        noValidate
        aria-labelledby="generate-title"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <h2 id="generate-title">Generate a draft from a table</h2>
        <FieldErrorSummary details={errors.errors} labelOf={(p) => p} />
        {generate.isError && !errors.errors.length && (
          <ErrorView error={generate.error} requiredRole="editor" onRetry={submit} />
        )}
        <div className="row-actions">
          {(['catalog', 'schema', 'table'] as const).map((k) => (
            <Field key={k} name={k} label={k[0].toUpperCase() + k.slice(1)} errors={errors}>
              {(p) => <input {...p} value={draft[k]} onChange={(e) => set({ [k]: e.target.value })} />}
            </Field>
          ))}
          <Field name="name" label="Contract name (optional: the table's)" errors={errors}>
            {(p) => <input {...p} value={draft.name} onChange={(e) => set({ name: e.target.value })} />}
          </Field>
        </div>
        <ActionButton type="submit" operation="post /api/governance/odcs/generate" disabled={generate.isPending}>
          {generate.isPending ? 'Generating…' : 'Generate the draft'}
        </ActionButton>
      </form>
    </section>
  );
}
