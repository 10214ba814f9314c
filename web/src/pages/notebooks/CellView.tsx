import { SqlEditor } from '../workbench/SqlEditor';
import { MarkdownView } from './MarkdownView';
import type { Cell } from './useNotebook';

/**
 * One cell: its editor (CodeMirror for SQL, a text area for markdown with the text rendered below it), its actions
 * (run, move up or down, delete) and its stored output.
 */
export function CellView(props: {
  cell: Cell;
  n: number;
  catalogs: string[];
  busy: boolean;
  /** The caller's role may run cells (else the button is disabled; the page says why). */
  canRun: boolean;
  onChange: (content: string) => void;
  onType: (type: Cell['type']) => void;
  onRun: () => void;
  onDelete: () => void;
  /** Moves the cell one place up (-1) or down (+1); null where it cannot go. */
  onMove: (by: -1 | 1) => void;
  first: boolean;
  last: boolean;
}) {
  const { cell, n } = props;
  const out = cell.output;
  return (
    <li className="notebook-cell" data-testid="notebook-cell" aria-labelledby={`cell-${cell.id}-h`}>
      <h2 id={`cell-${cell.id}-h`} className="cell-heading">
        Cell {n} ({cell.type === 'sql' ? 'SQL' : 'markdown'})
      </h2>
      <div className="row-actions">
        <label>
          Type of cell {n}{' '}
          <select value={cell.type} onChange={(e) => props.onType(e.target.value as Cell['type'])}>
            <option value="sql">SQL</option>
            <option value="markdown">Markdown</option>
          </select>
        </label>
        {cell.type === 'sql' && (
          <button type="button" onClick={props.onRun} disabled={props.busy || !props.canRun}>
            Run cell {n}
          </button>
        )}
        <button type="button" onClick={() => props.onMove(-1)} disabled={props.first} data-move="-1">
          Move cell {n} up
        </button>
        <button type="button" onClick={() => props.onMove(1)} disabled={props.last} data-move="1">
          Move cell {n} down
        </button>
        <button type="button" onClick={props.onDelete}>
          Delete cell {n}
        </button>
      </div>
      {cell.type === 'sql' ? (
        <SqlEditor
          value={cell.content}
          catalogs={props.catalogs}
          onChange={props.onChange}
          onRun={props.onRun}
          label={`Cell ${n} SQL`}
          testId={`cell-editor-${n}`}
        />
      ) : (
        <>
          <textarea
            aria-label={`Cell ${n} markdown`}
            value={cell.content}
            rows={4}
            onChange={(e) => props.onChange(e.target.value)}
          />
          <MarkdownView source={cell.content} label={`Cell ${n} rendered`} />
        </>
      )}
      {out && (
        <div data-testid={`cell-output-${n}`}>
          <p role="status">
            {out.state}
            {out.error ? `: ${out.error}` : ''} — {out.row_count} rows{out.truncated ? ' (first 100 shown)' : ''}
          </p>
          {out.columns.length > 0 && (
            <div className="scroll" tabIndex={0} role="region" aria-label={`Output of cell ${n}`}>
              <table>
                <thead>
                  <tr>
                    {out.columns.map((c, i) => (
                      <th key={i} scope="col">
                        {c.name}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {out.rows.map((r, i) => (
                    <tr key={i}>
                      {r.map((v, k) => (
                        <td key={k}>{v === null ? 'NULL' : v}</td>
                      ))}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </div>
      )}
    </li>
  );
}
