import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ApiError, unwrap } from '../../api/errors';
import { useConsole } from '../../shell/context';
import { ErrorView } from '../../shell/ErrorView';
import { RoleNote, useCan } from '../../shell/roles';

/**
 * Imports a Databricks SQL notebook source file (what "Export as SQL" writes) as a new notebook, then opens it.
 * The title defaults to the file's first markdown heading (the server decides).
 */
export function ImportNotebook() {
  const { api } = useConsole();
  const navigate = useNavigate();
  const can = useCan('post /api/notebooks/import');
  const [file, setFile] = useState<File | null>(null);
  const [title, setTitle] = useState('');
  const imported = useMutation({
    mutationFn: async () => {
      const source = await file!.text();
      return unwrap(
        api.client.POST('/api/notebooks/import', {
          body: { source, ...(title.trim() ? { title: title.trim() } : {}) },
        }),
      );
    },
    onSuccess: (nb) => void navigate(`/notebooks/${encodeURIComponent(nb.id)}`),
  });
  const fieldError =
    imported.error instanceof ApiError ? imported.error.info.details.find((d) => d.path.endsWith('source')) : undefined;
  return (
    <form
      aria-labelledby="nb-import-title"
      onSubmit={(e) => {
        e.preventDefault();
        if (file) imported.mutate();
      }}
    >
      <h2 id="nb-import-title">Import a notebook</h2>
      <div className="field">
        <label htmlFor="nb-import-file">Databricks SQL notebook file (.sql, as exported)</label>
        <input
          id="nb-import-file"
          type="file"
          accept=".sql,text/plain"
          onChange={(e) => setFile(e.target.files?.[0] ?? null)}
          aria-invalid={fieldError ? true : undefined}
          aria-describedby={fieldError ? 'nb-import-file-error' : undefined}
        />
        {fieldError && (
          <p id="nb-import-file-error" className="field-error">
            {fieldError.message}
          </p>
        )}
      </div>
      <div className="field">
        <label htmlFor="nb-import-name">Title (default: the file&apos;s first heading)</label>
        <input id="nb-import-name" value={title} maxLength={200} onChange={(e) => setTitle(e.target.value)} />
      </div>
      <button
        type="submit"
        disabled={!file || imported.isPending || !can.allowed}
        aria-describedby={can.allowed ? undefined : 'nb-import-role'}
      >
        Import the notebook
      </button>
      <RoleNote can={can} id="nb-import-role" />
      {imported.isError && !fieldError && <ErrorView error={imported.error} requiredRole={can.need ?? undefined} />}
    </form>
  );
}
