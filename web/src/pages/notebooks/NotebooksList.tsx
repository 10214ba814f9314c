import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { ApiError, unwrap } from '../../api/errors';
import { useConsole } from '../../shell/context';
import { ErrorView } from '../../shell/ErrorView';
import { RoleNote, useCan } from '../../shell/roles';
import { ImportNotebook } from './ImportNotebook';

/** /notebooks: every notebook, newest change first, a form that creates one and one that imports a file (then opens it). */
export function NotebooksList() {
  const { api } = useConsole();
  const navigate = useNavigate();
  const [title, setTitle] = useState('');
  const canCreate = useCan('post /api/notebooks');
  const list = useQuery({ queryKey: ['notebooks'], queryFn: () => unwrap(api.client.GET('/api/notebooks')) });
  const create = useMutation({
    mutationFn: (t: string) =>
      unwrap(
        api.client.POST('/api/notebooks', {
          body: { title: t, cells: [{ type: 'sql', content: 'SELECT 1' }] } as never,
        }),
      ),
    onSuccess: (nb) => void navigate(`/notebooks/${encodeURIComponent(nb.id)}`),
  });
  const fieldError =
    create.error instanceof ApiError ? create.error.info.details.find((d) => d.path.endsWith('title')) : undefined;
  return (
    <section aria-labelledby="nbs-title">
      <h1 id="nbs-title">Notebooks</h1>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          create.mutate(title);
        }}
      >
        <div className="field">
          <label htmlFor="nb-new-title">Title of a new notebook</label>
          <input
            id="nb-new-title"
            value={title}
            maxLength={200}
            onChange={(e) => setTitle(e.target.value)}
            aria-invalid={fieldError ? true : undefined}
            aria-describedby={fieldError ? 'nb-new-title-error' : undefined}
          />
          {fieldError && (
            <p id="nb-new-title-error" className="field-error">
              {fieldError.message}
            </p>
          )}
        </div>
        <button
          type="submit"
          disabled={create.isPending || !canCreate.allowed}
          aria-describedby={canCreate.allowed ? undefined : 'nb-create-role'}
        >
          Create the notebook
        </button>
        <RoleNote can={canCreate} id="nb-create-role" />
      </form>
      {create.isError && !fieldError && <ErrorView error={create.error} requiredRole={canCreate.need ?? undefined} />}
      <ImportNotebook />
      {list.isError && <ErrorView error={list.error} onRetry={() => void list.refetch()} />}
      {list.data && (
        <table data-testid="notebooks-table">
          <caption>{list.data.notebooks.length} notebooks, newest change first</caption>
          <thead>
            <tr>
              <th scope="col">Title</th>
              <th scope="col">Cells</th>
              <th scope="col">Version</th>
              <th scope="col">Created by</th>
              <th scope="col">Changed</th>
            </tr>
          </thead>
          <tbody>
            {list.data.notebooks.map((n) => (
              <tr key={n.id}>
                <td>
                  <Link to={`/notebooks/${encodeURIComponent(n.id)}`}>{n.title}</Link>
                </td>
                <td>{n.cell_count}</td>
                <td>{n.version}</td>
                <td>{n.created_by}</td>
                <td>{new Date(n.updated_at).toLocaleString()}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
