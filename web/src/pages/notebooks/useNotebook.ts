import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, unwrap } from '../../api/errors';
import type { paths } from '../../api/schema';
import type { Api } from '../../api/client';

export type Notebook = paths['/api/notebooks/{id}']['get']['responses'][200]['content']['application/json'];
export type Cell = Notebook['cells'][number];
export interface Draft {
  title: string;
  cells: Cell[];
}

/** Unsaved edits are saved this long after the first of them. */
export const AUTO_SAVE_MS = 30_000;

export const newCellId = () => crypto.randomUUID().replace(/-/g, '').slice(0, 16);

/**
 * A notebook being edited: the server copy (`base`, whose version goes in If-Match), the local draft, and whether
 * the draft has unsaved edits. Saves 30 s after the first unsaved edit; a 409 on If-Match becomes `conflict`
 * (reload the server copy, or overwrite it). Undo/redo are the server's (50 saved revisions); `epoch` changes
 * whenever the draft is replaced from the server, so editors holding their own text are re-created.
 */
export function useNotebook(api: Api, id: string, opts: { readOnly?: boolean } = {}) {
  const readOnly = Boolean(opts.readOnly);
  const [base, setBase] = useState<Notebook | null>(null);
  const [draft, setDraft] = useState<Draft | null>(null);
  const [epoch, setEpoch] = useState(0);
  const [edits, setEdits] = useState(0);
  const [savedEdits, setSavedEdits] = useState(0);
  const [conflict, setConflict] = useState<{ message: string } | null>(null);
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const live = useRef({ base, draft, edits });
  useEffect(() => {
    live.current = { base, draft, edits };
  });
  const dirty = edits !== savedEdits;

  /** Takes the server copy: `replace` the draft with it, or take only its cell `outputs` (after a run). */
  const adopt = useCallback((nb: Notebook, mode: 'replace' | 'outputs') => {
    setBase(nb);
    if (mode === 'replace') {
      setDraft({ title: nb.title, cells: nb.cells });
      setEpoch((e) => e + 1);
      setSavedEdits(live.current.edits);
    } else {
      const outputs = new Map(nb.cells.map((c) => [c.id, c.output]));
      setDraft((d) => d && { ...d, cells: d.cells.map((c) => ({ ...c, output: outputs.get(c.id) ?? c.output })) });
    }
  }, []);

  const load = useCallback(async () => {
    setError(null);
    try {
      adopt(await unwrap(api.client.GET('/api/notebooks/{id}', { params: { path: { id } } })), 'replace');
      setConflict(null);
    } catch (err) {
      setError(err);
    }
  }, [api, id, adopt]);

  useEffect(() => {
    let gone = false;
    unwrap(api.client.GET('/api/notebooks/{id}', { params: { path: { id } } })).then(
      (n) => !gone && adopt(n, 'replace'),
      (err: unknown) => !gone && setError(err),
    );
    return () => {
      gone = true;
    };
  }, [api, id, adopt]);

  const edit = useCallback((change: (d: Draft) => Draft) => {
    setDraft((d) => (d ? change(d) : d));
    setEdits((n) => n + 1);
  }, []);

  /** PUT with If-Match: the version the draft was edited from (or `version` to overwrite a newer copy). */
  const save = useCallback(
    async (version?: number): Promise<boolean> => {
      const { base: b, draft: d, edits: n } = live.current;
      if (!b || !d) return false;
      setError(null);
      try {
        const saved = await unwrap(
          api.client.PUT('/api/notebooks/{id}', {
            params: { path: { id } },
            headers: { 'If-Match': String(version ?? b.version) },
            body: {
              title: d.title,
              cells: d.cells.map(({ id: cid, type, content, speaker_notes }) => ({
                id: cid,
                type,
                content,
                speaker_notes,
              })),
            },
          }),
        );
        const untouched = live.current.edits === n;
        setBase(saved);
        setSavedEdits(n);
        if (untouched) setDraft({ title: saved.title, cells: saved.cells });
        setConflict(null);
        return true;
      } catch (err) {
        if (err instanceof ApiError && err.info.status === 409 && err.info.code === 'VERSION_CONFLICT') {
          setConflict({ message: err.info.message });
        } else {
          setError(err);
        }
        return false;
      }
    },
    [api, id],
  );

  /** Overwrite a newer server copy with the draft: save again at the server's current version. */
  const overwrite = useCallback(async () => {
    try {
      const current = await unwrap(api.client.GET('/api/notebooks/{id}', { params: { path: { id } } }));
      await save(current.version);
    } catch (err) {
      setError(err);
    }
  }, [api, id, save]);

  useEffect(() => {
    if (!dirty || conflict || readOnly) return;
    const t = setTimeout(() => void save(), AUTO_SAVE_MS);
    return () => clearTimeout(t);
  }, [dirty, savedEdits, conflict, save, readOnly]);

  /** Runs `work` after saving unsaved edits (running, undo and export act on the saved copy). */
  const afterSave = useCallback(
    async (work: () => Promise<void>) => {
      setBusy(true);
      try {
        // A caller who may not save (a viewer) runs and exports the saved copy.
        if (!readOnly && live.current.edits !== savedEdits && !(await save())) return;
        setError(null);
        await work();
      } catch (err) {
        setError(err);
      } finally {
        setBusy(false);
      }
    },
    [save, savedEdits, readOnly],
  );

  const step = (dir: 'undo' | 'redo') =>
    afterSave(async () => {
      const path = dir === 'undo' ? '/api/notebooks/{id}/undo' : '/api/notebooks/{id}/redo';
      adopt(await unwrap(api.client.POST(path, { params: { path: { id } } })), 'replace');
    });

  return { base, draft, epoch, dirty, conflict, error, busy, edit, save, overwrite, load, adopt, afterSave, step };
}
