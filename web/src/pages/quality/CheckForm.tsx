import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { unwrap } from '../../api/errors';
import type { components, paths } from '../../api/schema';
import { useConsole } from '../../shell/context';
import { ErrorView, FieldErrorSummary } from '../../shell/ErrorView';
import { uiState } from '../../state/ui-state';
import { createRequestValidator } from '../clone/validate';
import { buildArguments, controlOf, hintOf } from './check-args';
import { ActionButton, Field, requestSchemaOf, useFieldErrors, type FieldErrors } from './form';

type CheckFunction = components['schemas']['DqxCheckFunction'];
type Arg = CheckFunction['args'][number];
type CreateBody = NonNullable<
  paths['/api/governance/dqx/checks']['post']['requestBody']
>['content']['application/json'];

interface Draft {
  table_fqn: string;
  check_function: string;
  name: string;
  criticality: 'error' | 'warn';
  filter: string;
  args: Record<string, string>;
}
const EMPTY: Draft = { table_fqn: '', check_function: '', name: '', criticality: 'error', filter: '', args: {} };
const FQN = /^[^.\s]+\.[^.\s]+\.[^.\s]+$/;

/** One argument's control, of the kind its type calls for (columns of the table offered when it is known). */
function ArgControl(props: {
  arg: Arg;
  value: string;
  columns: string[];
  errors: FieldErrors;
  onChange: (v: string) => void;
}) {
  const { arg, value, columns, onChange } = props;
  const control = controlOf(arg.type);
  const label = `${arg.name}${arg.required ? ' (required)' : ''} — ${arg.description}`;
  return (
    <Field name={`arguments.${arg.name}`} label={label} errors={props.errors} hint={hintOf(arg.type)}>
      {(p) =>
        control === 'boolean' ? (
          <select {...p} value={value} onChange={(e) => onChange(e.target.value)}>
            <option value="">default</option>
            <option value="true">true</option>
            <option value="false">false</option>
          </select>
        ) : control === 'column' && columns.length ? (
          <select {...p} value={value} onChange={(e) => onChange(e.target.value)}>
            <option value="">choose a column</option>
            {columns.map((c) => (
              <option key={c}>{c}</option>
            ))}
          </select>
        ) : control === 'textarea' || control === 'json' ? (
          <textarea {...p} rows={3} value={value} onChange={(e) => onChange(e.target.value)} />
        ) : (
          <input
            {...p}
            inputMode={control === 'number' ? 'decimal' : undefined}
            value={value}
            onChange={(e) => onChange(e.target.value)}
          />
        )
      }
    </Field>
  );
}

/** Create a check: the function picker and its argument form come from the check-functions API. */
export function CheckForm({ functions }: { functions: CheckFunction[] }) {
  const { api, doc } = useConsole();
  const client = useQueryClient();
  const [draft, setDraft] = useState<Draft>(() => uiState.load<Draft>('quality.check-draft') ?? EMPTY);
  useEffect(() => uiState.save('quality.check-draft', draft), [draft]);
  const errors = useFieldErrors();
  const fn = functions.find((f) => f.name === draft.check_function);
  const table = useQuery({
    queryKey: ['table', draft.table_fqn],
    queryFn: () =>
      unwrap(
        api.client.GET('/api/tables/{full_name}', {
          params: { path: { full_name: draft.table_fqn }, query: { history_limit: 0 } },
        }),
      ),
    enabled: FQN.test(draft.table_fqn),
    retry: false,
  });
  const columns = table.data?.columns.map((c) => c.name) ?? [];
  const schema = requestSchemaOf(doc, '/api/governance/dqx/checks');
  const validate = useMemo(() => (schema ? createRequestValidator(doc, schema) : null), [doc, schema]);
  const create = useMutation({
    mutationFn: (body: CreateBody) => unwrap(api.client.POST('/api/governance/dqx/checks', { body })),
    onSuccess: () => {
      setDraft((d) => ({ ...d, name: '', args: {} }));
      errors.clear();
      void client.invalidateQueries({ queryKey: ['dq-checks'] });
    },
    onError: (err) => errors.fromError(err),
  });
  const byCategory = useMemo(() => {
    const m = new Map<string, CheckFunction[]>();
    for (const f of functions) m.set(f.category, [...(m.get(f.category) ?? []), f]);
    return [...m.entries()];
  }, [functions]);
  const set = (patch: Partial<Draft>) => setDraft((d) => ({ ...d, ...patch }));

  const submit = () => {
    const built = buildArguments(fn?.args ?? [], draft.args);
    const body = {
      table_fqn: draft.table_fqn.trim(),
      check_function: draft.check_function,
      arguments: built.arguments,
      criticality: draft.criticality,
      ...(draft.name.trim() ? { name: draft.name.trim() } : {}),
      ...(draft.filter.trim() ? { filter: draft.filter.trim() } : {}),
    };
    const problems = [...(validate?.(body) ?? []), ...built.problems];
    if (problems.length) return errors.show(problems);
    errors.clear();
    create.mutate(body);
  };

  return (
    <form
      noValidate
      aria-labelledby="new-check-title"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
    >
      <h2 id="new-check-title">New check</h2>
      <FieldErrorSummary details={errors.errors} labelOf={(p) => p.replace(/^arguments\./, 'argument ')} />
      {create.isError && !errors.errors.length && (
        <ErrorView error={create.error} requiredRole="editor" onRetry={submit} />
      )}
      {create.isSuccess && (
        <p role="status" data-testid="check-created">
          ✓ Created {create.data.map((c) => c.name).join(', ')}
        </p>
      )}
      <div className="row-actions">
        <Field name="table_fqn" label="Table (catalog.schema.table)" errors={errors}>
          {(p) => <input {...p} value={draft.table_fqn} onChange={(e) => set({ table_fqn: e.target.value })} />}
        </Field>
        <Field name="check_function" label="Check function" errors={errors}>
          {(p) => (
            <select
              {...p}
              value={draft.check_function}
              onChange={(e) => set({ check_function: e.target.value, args: {} })}
            >
              <option value="">choose a function</option>
              {byCategory.map(([category, fns]) => (
                <optgroup key={category} label={category}>
                  {fns.map((f) => (
                    <option key={f.name} value={f.name} disabled={!f.available}>
                      {f.name} ({f.level}){f.available ? '' : ' — unavailable'}
                    </option>
                  ))}
                </optgroup>
              ))}
            </select>
          )}
        </Field>
        <Field name="criticality" label="Criticality" errors={errors}>
          {(p) => (
            <select
              {...p}
              value={draft.criticality}
              onChange={(e) => set({ criticality: e.target.value as Draft['criticality'] })}
            >
              <option value="error">error (the row is invalid)</option>
              <option value="warn">warn (the row is flagged)</option>
            </select>
          )}
        </Field>
      </div>
      {table.isError && FQN.test(draft.table_fqn) && (
        <p className="field-error">⚠ The table&apos;s columns could not be read; type column names.</p>
      )}
      {fn && (
        <fieldset data-testid="check-arguments">
          <legend>
            Arguments of {fn.name}: {fn.description}
          </legend>
          {fn.unavailable_reason && <p>⚠ {fn.unavailable_reason}</p>}
          {fn.args.length === 0 && <p>This function takes no arguments.</p>}
          {fn.args.map((a) => (
            <ArgControl
              key={a.name}
              arg={a}
              columns={columns}
              errors={errors}
              value={draft.args[a.name] ?? ''}
              onChange={(v) => setDraft((d) => ({ ...d, args: { ...d.args, [a.name]: v } }))}
            />
          ))}
        </fieldset>
      )}
      <div className="row-actions">
        <Field name="name" label="Name (optional)" errors={errors}>
          {(p) => <input {...p} value={draft.name} onChange={(e) => set({ name: e.target.value })} />}
        </Field>
        <Field name="filter" label="Row filter (optional SQL condition)" errors={errors}>
          {(p) => <input {...p} value={draft.filter} onChange={(e) => set({ filter: e.target.value })} />}
        </Field>
      </div>
      <ActionButton type="submit" operation="post /api/governance/dqx/checks" disabled={create.isPending}>
        Create the check
      </ActionButton>
    </form>
  );
}
