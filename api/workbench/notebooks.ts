import { randomUUID } from 'node:crypto';
import type { Request } from 'express';
import type { z } from 'zod';
import {
  exportNotebookSource,
  headingOf,
  importNotebookSource,
  NotebookSourceError,
} from '../../activities/workbench/logic/notebook-source';
import { cellOutputOf } from '../../activities/workbench/logic/cell-output';
import type { Caller } from '../../schemas/governance';
import type { CellInputSchema, Notebook, NotebookInputSchema } from '../../schemas/workbench';
import {
  createNotebook,
  deleteNotebook,
  getNotebook,
  neighbours,
  saveNotebook,
  setCellOutput,
  stepNotebook,
  VersionMismatchError,
  type NotebookRow,
} from '../../store/workbench/notebooks';
import type { NotebookCell } from '../../store/workbench/tables';
import type { AppDeps } from '../deps';
import { HttpError } from '../middleware/http-error';
import { statementNow, type StatementRunner } from './statement-runner';
import { checkedStatement, recordReads, viewOf } from './statements';

type CellInput = z.infer<typeof CellInputSchema>;
type NotebookInput = z.infer<typeof NotebookInputSchema>;

const newId = () => randomUUID().replace(/-/g, '').slice(0, 16);

export const notFound = (id: string) =>
  new HttpError(404, 'NOT_FOUND', `notebook ${id} does not exist`, [
    { path: 'params.id', message: 'unknown notebook' },
  ]);

/** Cells as stored: ids kept (a duplicate or missing one gets a new id), outputs kept for unchanged SQL. */
export function cellsOf(input: CellInput[], previous: NotebookCell[] = []): NotebookCell[] {
  const seen = new Set<string>();
  return input.map((c) => {
    const id = c.id && !seen.has(c.id) ? c.id : newId();
    seen.add(id);
    const before = previous.find((p) => p.id === id);
    const keep = before && before.type === c.type && before.content === c.content;
    return {
      id,
      type: c.type,
      content: c.content,
      speaker_notes: c.speaker_notes,
      output: keep ? before.output : null,
    };
  });
}

const comparable = (title: string, cells: NotebookCell[]) =>
  JSON.stringify([title, cells.map((c) => [c.id, c.type, c.content, c.speaker_notes])]);

export async function notebookView(deps: AppDeps, row: NotebookRow): Promise<Notebook> {
  const n = await neighbours(deps.store.db, row);
  return {
    id: row.id,
    title: row.title,
    cells: row.cells as Notebook['cells'],
    version: row.version,
    can_undo: n.undo,
    can_redo: n.redo,
    created_by: row.createdBy,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export async function notebookOrThrow(deps: AppDeps, id: string): Promise<NotebookRow> {
  const row = await getNotebook(deps.store.db, id);
  if (!row) throw notFound(id);
  return row;
}

export async function create(deps: AppDeps, caller: Caller, body: NotebookInput): Promise<Notebook> {
  const row = await createNotebook(deps.store.db, {
    id: newId(),
    title: body.title,
    cells: cellsOf(body.cells),
    createdBy: caller.name,
  });
  return notebookView(deps, row);
}

/** `If-Match: <version>` (or `"<version>"`): required; a stale one is a 409 naming the current version. */
export function ifMatchOf(req: Request): number {
  const raw = req.get('if-match');
  const m = raw ? /^\s*(?:W\/)?"?(\d+)"?\s*$/.exec(raw) : null;
  if (!m) {
    throw new HttpError(
      409,
      'VERSION_REQUIRED',
      'send If-Match: <version> (the version you edited) to save a notebook',
      [{ path: 'headers.if-match', message: raw ? 'must be the notebook version, a number' : 'required' }],
    );
  }
  return Number(m[1]);
}

export async function update(deps: AppDeps, id: string, version: number, body: NotebookInput): Promise<Notebook> {
  const current = await notebookOrThrow(deps, id);
  const cells = cellsOf(body.cells, current.cells);
  try {
    const row = await saveNotebook(
      deps.store.db,
      id,
      version,
      { title: body.title, cells },
      (r) => comparable(r.title, r.cells) === comparable(body.title, cells),
    );
    if (!row) throw notFound(id);
    return notebookView(deps, row);
  } catch (err) {
    if (err instanceof VersionMismatchError) {
      throw new HttpError(
        409,
        'VERSION_CONFLICT',
        `the notebook changed since version ${version} (it is at version ${err.current}): reload it, then save again`,
        [{ path: 'headers.if-match', message: `current version is ${err.current}` }],
      );
    }
    throw err;
  }
}

export async function step(deps: AppDeps, id: string, direction: -1 | 1): Promise<Notebook> {
  const row = await stepNotebook(deps.store.db, id, direction);
  if (row === null) throw notFound(id);
  if (row === 'none') {
    const what = direction < 0 ? 'undo' : 'redo';
    throw new HttpError(409, direction < 0 ? 'NOTHING_TO_UNDO' : 'NOTHING_TO_REDO', `nothing to ${what}`, [
      { path: 'params.id', message: `no earlier ${direction < 0 ? '' : 'undone '}revision (50 are kept)` },
    ]);
  }
  return notebookView(deps, row);
}

export async function remove(deps: AppDeps, id: string): Promise<void> {
  if (!(await deleteNotebook(deps.store.db, id))) throw notFound(id);
}

export function exportSource(row: NotebookRow): string {
  return exportNotebookSource(row.cells);
}

export async function importSource(
  deps: AppDeps,
  caller: Caller,
  body: { title?: string; source: string },
): Promise<Notebook> {
  let cells;
  try {
    cells = importNotebookSource(body.source);
  } catch (err) {
    if (err instanceof NotebookSourceError) {
      throw new HttpError(400, 'VALIDATION_ERROR', err.message, [{ path: 'body.source', message: err.message }]);
    }
    throw err;
  }
  return create(deps, caller, {
    title: body.title ?? headingOf(cells) ?? 'Imported notebook',
    cells: cells.map((c) => ({ ...c })),
  });
}

/** POST …/cells/{cell_id}/run: the cell's SQL as a workbench statement (waits for it), output stored in the cell. */
export async function runCell(
  deps: AppDeps,
  runner: StatementRunner,
  req: Request,
  caller: Caller,
  id: string,
  cellId: string,
  opts: { row_limit: number; timeout_seconds: number },
) {
  const nb = await notebookOrThrow(deps, id);
  const cell = nb.cells.find((c) => c.id === cellId);
  if (!cell) {
    throw new HttpError(404, 'NOT_FOUND', `notebook ${id} has no cell ${cellId}`, [
      { path: 'params.cellId', message: 'unknown cell' },
    ]);
  }
  if (cell.type !== 'sql') {
    throw new HttpError(422, 'NOT_A_SQL_CELL', `cell ${cellId} is markdown; only SQL cells run`, [
      { path: 'params.cellId', message: 'markdown cell' },
    ]);
  }
  const body = { statement: cell.content, parameters: [] };
  const { sql, tables } = await checkedStatement(deps, caller, body, `notebook.cells.${cellId}`);
  const ws = await deps.workspaces.resolve(req);
  await recordReads(deps, ws, tables, 'notebook');
  const statementId = randomUUID();
  await runner.start(
    ws,
    { id: statementId, caller: caller.name, statement: cell.content, sql },
    { parameters: [], row_limit: opts.row_limit, timeout_seconds: opts.timeout_seconds },
    opts.timeout_seconds * 1000 + 5000,
    `notebook:${id}/${cellId}`,
  );
  const stmt = (await statementNow(deps.store.db, statementId))!;
  const saved = await setCellOutput(deps.store.db, id, cellId, cellOutputOf(stmt));
  return { statement: viewOf(stmt), notebook: saved ? await notebookView(deps, saved) : null };
}
