import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { unwrap } from '../../api/errors';
import type { components } from '../../api/schema';
import { useConsole } from '../../shell/context';
import { ErrorView, FieldErrorSummary } from '../../shell/ErrorView';
import { uiState } from '../../state/ui-state';
import { createRequestValidator } from '../clone/validate';
import { ActionButton, Field, requestSchemaOf, useFieldErrors } from './form';
import { pct, QualityNav } from './status';

type Profile = components['schemas']['DqxProfile'];
const show = (v: unknown) =>
  v === null || v === undefined ? '—' : typeof v === 'number' ? String(Math.round(v * 1000) / 1000) : String(v);

/** One stored profile: per column counts, nulls, distinct, range and top values. */
function ProfileView({ p }: { p: Profile }) {
  return (
    <article aria-label={`Profile of ${p.table_fqn}`} data-testid="profile">
      <h3>
        {p.table_fqn}: {p.row_count} rows, {p.columns.length} columns
        {p.profiled_at ? ` — ${new Date(p.profiled_at).toLocaleString()}` : ''}
      </h3>
      <div className="scroll" role="region" tabIndex={0} aria-label={`Columns of ${p.table_fqn}`}>
        <table>
          <caption className="skip-link">Column profile of {p.table_fqn}</caption>
          <thead>
            <tr>
              {['Column', 'Type', 'Nulls', 'Distinct', 'Min', 'Max', 'Mean', 'Top values'].map((h) => (
                <th scope="col" key={h}>
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {p.columns.map((c) => (
              <tr key={c.name}>
                <th scope="row">{c.name}</th>
                <td>{c.type}</td>
                <td>
                  {c.nulls} ({pct(c.null_pct)})
                </td>
                <td>
                  {c.distinct} ({pct(c.distinct_pct)})
                </td>
                <td>{show(c.min)}</td>
                <td>{show(c.max)}</td>
                <td>{show(c.mean)}</td>
                <td>
                  {c.top_values
                    .slice(0, 3)
                    .map((t) => `${show(t.value)} × ${t.count}`)
                    .join(', ')}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </article>
  );
}

/** /quality/profiles: profile a table (stored), and the stored profiles, newest first. */
export function ProfilesPage() {
  const { api, doc } = useConsole();
  const client = useQueryClient();
  const [table, setTable] = useState(() => uiState.load<string>('quality.profiles.table') ?? '');
  useEffect(() => uiState.save('quality.profiles.table', table), [table]);
  const [open, setOpen] = useState<string | null>(null);
  const errors = useFieldErrors();
  const schema = requestSchemaOf(doc, '/api/governance/dqx/profile');
  const validate = useMemo(() => (schema ? createRequestValidator(doc, schema) : null), [doc, schema]);
  const profiles = useQuery({
    queryKey: ['dq-profiles'],
    queryFn: () => unwrap(api.client.GET('/api/governance/dqx/profiles', { params: { query: { limit: 100 } } })),
  });
  const profile = useMutation({
    mutationFn: (table_fqn: string) => unwrap(api.client.POST('/api/governance/dqx/profile', { body: { table_fqn } })),
    onSuccess: (p) => {
      setOpen(p.profile_id ?? null);
      void client.invalidateQueries({ queryKey: ['dq-profiles'] });
    },
    onError: (err) => errors.fromError(err),
  });
  const submit = () => {
    const body = { table_fqn: table.trim() };
    const problems = validate?.(body) ?? [];
    if (problems.length) return errors.show(problems);
    errors.clear();
    profile.mutate(body.table_fqn);
  };
  return (
    <section aria-labelledby="profiles-title">
      <h1 id="profiles-title">Profiles</h1>
      <QualityNav />
      <form
        noValidate
        aria-labelledby="profile-form-title"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <h2 id="profile-form-title">Profile a table</h2>
        <FieldErrorSummary details={errors.errors} labelOf={() => 'Table'} />
        {profile.isError && !errors.errors.length && <ErrorView error={profile.error} onRetry={submit} />}
        <Field name="table_fqn" label="Table (catalog.schema.table)" errors={errors}>
          {(p) => <input {...p} value={table} onChange={(e) => setTable(e.target.value)} />}
        </Field>
        <ActionButton type="submit" operation="post /api/governance/dqx/profile" disabled={profile.isPending}>
          {profile.isPending ? 'Profiling…' : 'Profile the table'}
        </ActionButton>
      </form>
      {profile.data && <ProfileView p={profile.data} />}
      <h2>Stored profiles</h2>
      {profiles.isError && <ErrorView error={profiles.error} onRetry={() => void profiles.refetch()} />}
      {profiles.data &&
        (profiles.data.length === 0 ? (
          <p>No table has been profiled yet.</p>
        ) : (
          <ul data-testid="dq-profiles">
            {profiles.data.map((p, i) => {
              const id = p.profile_id ?? `${p.table_fqn}-${i}`;
              return (
                <li key={id}>
                  <button type="button" aria-expanded={open === id} onClick={() => setOpen(open === id ? null : id)}>
                    {p.table_fqn}: {p.row_count} rows
                    {p.profiled_at ? `, ${new Date(p.profiled_at).toLocaleString()}` : ''}
                  </button>
                  {open === id && profile.data?.profile_id !== id && <ProfileView p={p} />}
                </li>
              );
            })}
          </ul>
        ))}
    </section>
  );
}
