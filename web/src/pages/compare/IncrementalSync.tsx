import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { unwrap } from '../../api/errors';
import { useConsole } from '../../shell/context';
import { CallError, fieldErrors, StatusWord, TextField } from './ui';

/** Incremental sync of one schema: which tables changed since their last clone (check), then sync them as a job. */
export function IncrementalSync({ source, dest }: { source: string; dest: string }) {
  const { api } = useConsole();
  const [schema, setSchema] = useState('');
  const body = { source_catalog: source, destination_catalog: dest, schema_name: schema };
  const check = useMutation({
    mutationFn: () => unwrap(api.client.POST('/api/incremental/check', { body })),
  });
  const sync = useMutation({
    mutationFn: () => unwrap(api.client.POST('/api/incremental/sync', { body })),
  });
  const errs = { ...fieldErrors(check.error), ...fieldErrors(sync.error) };
  const c = check.data;
  return (
    <section aria-labelledby="incremental-title">
      <h2 id="incremental-title">Incremental sync</h2>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          sync.reset();
          check.mutate();
        }}
      >
        <TextField
          id="incremental-schema"
          label="Schema"
          value={schema}
          onChange={setSchema}
          error={errs.schema_name}
          required
        />
        <button type="submit" disabled={check.isPending}>
          Check what needs syncing
        </button>
      </form>
      <CallError error={check.error} fields={['schema_name']} />
      {c && (
        <div data-testid="incremental-check">
          <p>
            {c.tables_needing_sync} of {c.tables.length} tables of {c.schema} need syncing.
          </p>
          <table>
            <thead>
              <tr>
                <th scope="col">Table</th>
                <th scope="col">State</th>
                <th scope="col">Versions (recorded → now)</th>
                <th scope="col">How</th>
                <th scope="col">Detail</th>
              </tr>
            </thead>
            <tbody>
              {c.tables.map((t) => (
                <tr key={t.table}>
                  <td>{t.table}</td>
                  <td>
                    <StatusWord status={t.needs_sync ? 'warning' : 'in_sync'}>{t.reason.replace(/_/g, ' ')}</StatusWord>
                  </td>
                  <td>
                    {t.recorded_version ?? '—'} → {t.current_version ?? '—'}
                  </td>
                  <td>{t.path ?? '—'}</td>
                  <td>{t.detail}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {c.tables_needing_sync > 0 && (
            <button type="button" disabled={sync.isPending || Boolean(sync.data)} onClick={() => sync.mutate()}>
              Sync {c.tables_needing_sync} table{c.tables_needing_sync === 1 ? '' : 's'}
            </button>
          )}
        </div>
      )}
      <CallError error={sync.error} fields={['schema_name']} />
      {sync.data && (
        <p role="status" data-testid="incremental-job">
          {sync.data.message} — job <Link to={`/jobs/${encodeURIComponent(sync.data.job_id)}`}>{sync.data.job_id}</Link>
        </p>
      )}
    </section>
  );
}
