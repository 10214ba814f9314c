import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { unwrap } from '../../api/errors';
import { useConsole } from '../../shell/context';
import { ErrorView } from '../../shell/ErrorView';
import { RoleNote, useCan } from '../../shell/roles';
import { CellView } from './CellView';
import { ConflictDialog } from './ConflictDialog';
import { newCellId, useNotebook } from './useNotebook';

const FINAL = ['completed', 'failed', 'cancelled', 'aborted'];

/**
 * /notebooks/:id: cells edited with CodeMirror, run one cell or all (a notebook_run job), auto-save 30 s after the
 * first unsaved edit (PUT with If-Match), a prompt when the server copy is newer, the server's undo/redo (50 saved
 * revisions), export as a Databricks SQL source file. Ctrl/Cmd+S saves now; Ctrl/Cmd+Enter in a cell runs it.
 */
export function NotebookPage() {
  const { id = '' } = useParams();
  const { api } = useConsole();
  const canSave = useCan('put /api/notebooks/{id}');
  const canRun = useCan('post /api/notebooks/{id}/run');
  const nb = useNotebook(api, id, { readOnly: !canSave.allowed });
  const { base, draft } = nb;
  const [runJob, setRunJob] = useState<string | null>(null);
  const catalogs = useQuery({ queryKey: ['catalogs'], queryFn: () => unwrap(api.client.GET('/api/catalogs')) });
  const job = useQuery({
    queryKey: ['job', runJob],
    enabled: Boolean(runJob),
    queryFn: () => unwrap(api.client.GET('/api/jobs/{jobId}', { params: { path: { jobId: runJob! } } })),
    refetchInterval: (q) => (FINAL.includes(q.state.data?.status ?? '') ? false : 1_000),
  });
  const jobStatus = job.data?.status;
  const { save } = nb;
  const canSaveNow = canSave.allowed;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 's') {
        e.preventDefault();
        if (canSaveNow) void save();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [save, canSaveNow]);
  const { adopt } = nb;
  useEffect(() => {
    if (!jobStatus || !FINAL.includes(jobStatus)) return;
    void unwrap(api.client.GET('/api/notebooks/{id}', { params: { path: { id } } })).then((n) => adopt(n, 'outputs'));
  }, [jobStatus, api, id, adopt]);

  if (nb.error && !draft) return <ErrorView error={nb.error} onRetry={() => void nb.load()} />;
  if (!base || !draft) return <p role="status">Loading the notebook…</p>;
  const saveNote = canSave.allowed ? undefined : 'nb-save-note';

  const runCell = (cellId: string) =>
    nb.afterSave(async () => {
      const r = await unwrap(
        api.client.POST('/api/notebooks/{id}/cells/{cellId}/run', {
          params: { path: { id, cellId } },
          body: {} as never,
        }),
      );
      if (r.notebook) nb.adopt(r.notebook, 'outputs');
    });
  const runAll = () =>
    nb.afterSave(async () => {
      const r = await unwrap(
        api.client.POST('/api/notebooks/{id}/run', { params: { path: { id } }, body: {} as never }),
      );
      setRunJob(r.job_id);
    });
  const exportSql = () =>
    nb.afterSave(async () => {
      const text = await unwrap(
        api.client.POST('/api/notebooks/{id}/export', { params: { path: { id } }, parseAs: 'text' }),
      );
      const a = document.createElement('a');
      a.href = URL.createObjectURL(new Blob([text as string], { type: 'text/plain' }));
      a.download = `${draft.title.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 80) || 'notebook'}.sql`;
      a.click();
      setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
    });
  /** Reordering is an edit like any other: saved with the cells' new order (auto-save, Ctrl/Cmd+S). */
  const moveCell = (i: number, by: -1 | 1) => {
    nb.edit((d) => {
      const cells = [...d.cells];
      const [cell] = cells.splice(i, 1);
      cells.splice(i + by, 0, cell);
      return { ...d, cells };
    });
    // Focus follows the moved cell's button, so pressing it again keeps moving the same cell.
    requestAnimationFrame(() =>
      document
        .querySelector<HTMLButtonElement>(`[data-testid="notebook-cell"]:nth-child(${i + by + 1}) [data-move="${by}"]`)
        ?.focus(),
    );
  };
  const setCell = (i: number, change: Partial<(typeof draft.cells)[number]>) =>
    nb.edit((d) => ({ ...d, cells: d.cells.map((c, k) => (k === i ? { ...c, ...change } : c)) }));

  return (
    <section aria-labelledby="nb-title">
      <p>
        <Link to="/notebooks">All notebooks</Link>
      </p>
      <h1 id="nb-title">{draft.title}</h1>
      <div className="field">
        <label htmlFor="nb-title-input">Title</label>
        <input
          id="nb-title-input"
          value={draft.title}
          maxLength={200}
          onChange={(e) => {
            const title = e.target.value;
            nb.edit((d) => ({ ...d, title }));
          }}
        />
      </div>
      <p role="status" data-testid="save-state">
        {nb.dirty ? 'Unsaved changes (saved within 30 s)' : `Saved, version ${base.version}`}
      </p>
      <div className="row-actions">
        <button
          type="button"
          onClick={() => void nb.save()}
          disabled={!nb.dirty || nb.busy || !canSave.allowed}
          aria-describedby={saveNote}
        >
          Save now
        </button>
        <button
          type="button"
          onClick={() => void nb.step('undo')}
          disabled={nb.busy || (!base.can_undo && !nb.dirty) || !canSave.allowed}
          aria-describedby={saveNote}
        >
          Undo
        </button>
        <button
          type="button"
          onClick={() => void nb.step('redo')}
          disabled={nb.busy || nb.dirty || !base.can_redo || !canSave.allowed}
          aria-describedby={saveNote}
        >
          Redo
        </button>
        <button
          type="button"
          onClick={runAll}
          disabled={nb.busy || !canRun.allowed}
          aria-describedby={canRun.allowed ? undefined : 'nb-run-note'}
        >
          Run all
        </button>
        <button type="button" onClick={exportSql} disabled={nb.busy}>
          Export as SQL
        </button>
      </div>
      <RoleNote can={canSave} id="nb-save-note" />
      <RoleNote can={canRun} id="nb-run-note" />
      <p className="marker">
        Ctrl/Cmd+S saves now; Ctrl/Cmd+Enter in a cell runs it; Escape then Tab leaves a cell's editor. Undo and redo
        step through the last 50 saved versions.
      </p>
      {nb.error !== null && <ErrorView error={nb.error} onRetry={() => void nb.load()} />}
      {catalogs.isError && <ErrorView error={catalogs.error} onRetry={() => void catalogs.refetch()} />}
      {runJob && (
        <p role="status" data-testid="run-all-status">
          Run all: <Link to={`/jobs/${encodeURIComponent(runJob)}`}>job {runJob}</Link> {jobStatus ?? 'queued'}
        </p>
      )}
      {job.isError && <ErrorView error={job.error} onRetry={() => void job.refetch()} />}
      {catalogs.data && (
        <ol className="notebook-cells">
          {draft.cells.map((c, i) => (
            <CellView
              // The position is in the key: a moved cell's editor is made again with its new number and label.
              key={`${c.id}:${nb.epoch}:${i}`}
              cell={c}
              n={i + 1}
              catalogs={catalogs.data.catalogs.map((x) => x.name)}
              busy={nb.busy}
              canRun={canRun.allowed}
              onChange={(content) => setCell(i, { content })}
              onType={(type) => setCell(i, { type })}
              onRun={() => canRun.allowed && void runCell(c.id)}
              onDelete={() => nb.edit((d) => ({ ...d, cells: d.cells.filter((x) => x.id !== c.id) }))}
              onMove={(by) => moveCell(i, by)}
              first={i === 0}
              last={i === draft.cells.length - 1}
            />
          ))}
        </ol>
      )}
      <div className="row-actions">
        <button
          type="button"
          onClick={() =>
            nb.edit((d) => ({
              ...d,
              cells: [...d.cells, { id: newCellId(), type: 'sql', content: '', speaker_notes: '', output: null }],
            }))
          }
        >
          Add a SQL cell
        </button>
      </div>
      {nb.conflict && (
        <ConflictDialog
          message={nb.conflict.message}
          onReload={() => void nb.load()}
          onOverwrite={() => void nb.overwrite()}
        />
      )}
    </section>
  );
}
