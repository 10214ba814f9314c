/**
 * Databricks' SQL notebook source format, what `databricks workspace export --format SOURCE` writes and
 * `databricks workspace import --language SQL` reads:
 *
 *   -- Databricks notebook source
 *   SELECT 1
 *
 *   -- COMMAND ----------
 *
 *   -- MAGIC %md
 *   -- MAGIC # A heading
 *
 * Cells are separated by a `-- COMMAND ----------` line with a blank line on each side; a markdown cell is its
 * lines prefixed `-- MAGIC ` under `-- MAGIC %md`. Lakeward adds a cell's speaker notes as trailing
 * `-- notes: ` lines (SQL comments to Databricks, so the notebook still imports there).
 */
export const NOTEBOOK_HEADER = '-- Databricks notebook source';
const SEPARATOR = '\n\n-- COMMAND ----------\n\n';
const MAGIC = '-- MAGIC';
const NOTES = '-- notes: ';

export interface SourceCell {
  type: 'sql' | 'markdown';
  content: string;
  speaker_notes: string;
}

const trimBlankEnd = (s: string) => s.replace(/\s+$/, '');

function renderCell(c: SourceCell): string {
  const content = trimBlankEnd(c.content);
  const lines =
    c.type === 'markdown'
      ? [
          `${MAGIC} %md`,
          ...(content === '' ? [] : content.split('\n').map((l) => (l === '' ? MAGIC : `${MAGIC} ${l}`))),
        ]
      : content === ''
        ? []
        : content.split('\n');
  const notes = trimBlankEnd(c.speaker_notes);
  if (notes !== '') lines.push(...notes.split('\n').map((l) => `${NOTES}${l}`));
  return lines.join('\n');
}

/** A notebook as a Databricks SQL notebook source file. */
export function exportNotebookSource(cells: SourceCell[]): string {
  return `${NOTEBOOK_HEADER}\n${cells.map(renderCell).join(SEPARATOR)}\n`;
}

export class NotebookSourceError extends Error {}

/** Cells from a Databricks SQL notebook source file (CRLF accepted); `-- DBTITLE` lines are dropped. */
export function importNotebookSource(source: string): SourceCell[] {
  const text = source.replace(/\r\n/g, '\n');
  const first = text.indexOf('\n');
  const header = (first < 0 ? text : text.slice(0, first)).trim();
  if (header !== NOTEBOOK_HEADER) {
    throw new NotebookSourceError(
      `a SQL notebook source starts with "${NOTEBOOK_HEADER}", got "${header.slice(0, 80)}"`,
    );
  }
  const body = first < 0 ? '' : text.slice(first + 1).replace(/\n+$/, '');
  if (body.trim() === '') return [];
  return body.split(/\n\n-- COMMAND -{10}\n\n/).map((chunk) => {
    const lines = chunk.split('\n').filter((l) => !l.startsWith('-- DBTITLE'));
    const notes: string[] = [];
    while (lines.length > 0 && lines[lines.length - 1].startsWith(NOTES))
      notes.unshift(lines.pop()!.slice(NOTES.length));
    const speaker_notes = notes.join('\n');
    if (lines[0]?.trim() === `${MAGIC} %md`) {
      const content = lines
        .slice(1)
        .map((l) => (l === MAGIC ? '' : l.startsWith(`${MAGIC} `) ? l.slice(MAGIC.length + 1) : l))
        .join('\n');
      return { type: 'markdown' as const, content, speaker_notes };
    }
    return { type: 'sql' as const, content: lines.join('\n'), speaker_notes };
  });
}

/** The first markdown heading of the cells (an imported notebook's default title). */
export function headingOf(cells: SourceCell[]): string | null {
  for (const c of cells) {
    if (c.type !== 'markdown') continue;
    const m = /^#+\s+(.+)$/m.exec(c.content);
    if (m) return m[1].trim().slice(0, 200);
  }
  return null;
}
