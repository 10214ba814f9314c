import { acceptCompletion, autocompletion, startCompletion } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { sql, StandardSQL } from '@codemirror/lang-sql';
import { tags } from '@lezer/highlight';
import { EditorState, Prec } from '@codemirror/state';
import { EditorView, keymap } from '@codemirror/view';
import { basicSetup } from 'codemirror';
import { useEffect, useRef } from 'react';
import { format } from 'sql-formatter';

function formatDoc(v: EditorView): boolean {
  try {
    const text = format(v.state.doc.toString(), { language: 'spark', keywordCase: 'upper' });
    v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: text } });
  } catch {
    /* text the formatter cannot parse stays as written */
  }
  return true;
}

/** Token colours from the theme's CSS variables, so both themes keep AA contrast. */
const highlight = HighlightStyle.define([
  { tag: tags.keyword, color: 'var(--code-keyword)', fontWeight: 'bold' },
  { tag: [tags.string, tags.special(tags.string)], color: 'var(--code-string)' },
  { tag: [tags.number, tags.bool, tags.null], color: 'var(--code-number)' },
  { tag: tags.comment, color: 'var(--muted)', fontStyle: 'italic' },
]);

/**
 * CodeMirror 6 with Databricks' keys: Ctrl/Cmd+Enter runs the editor's text, Ctrl/Cmd+Shift+Enter the selection,
 * Ctrl+Space completes (catalog names from the API), Ctrl/Cmd+Shift+F formats.
 */
export function SqlEditor(props: {
  value: string;
  catalogs: string[];
  onChange: (text: string) => void;
  onRun: (text: string) => void;
  /** The editor's accessible name and test id (default "SQL editor" / sql-editor). */
  label?: string;
  testId?: string;
}) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const latest = useRef(props);
  useEffect(() => {
    latest.current = props;
  });
  useEffect(() => {
    const schema = Object.fromEntries(latest.current.catalogs.map((c) => [c, []]));
    const keys = Prec.highest(
      keymap.of([
        { key: 'Mod-Enter', run: (v) => (latest.current.onRun(v.state.doc.toString()), true) },
        {
          key: 'Mod-Shift-Enter',
          run: (v) => {
            const sel = v.state.selection.main;
            latest.current.onRun(sel.empty ? v.state.doc.toString() : v.state.sliceDoc(sel.from, sel.to));
            return true;
          },
        },
        {
          key: 'Mod-Shift-f',
          run: (v) => formatDoc(v),
        },
        { key: 'Ctrl-Space', run: startCompletion },
        { key: 'Ctrl-Space', run: startCompletion },
        { key: 'Tab', run: acceptCompletion },
        indentWithTab,
        ...historyKeymap,
        ...defaultKeymap,
      ]),
    );
    const v = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: latest.current.value,
        extensions: [
          keys,
          basicSetup,
          syntaxHighlighting(highlight),
          history(),
          sql({ dialect: StandardSQL, schema }),
          autocompletion({ activateOnTyping: false }),
          EditorView.contentAttributes.of({
            'aria-label': latest.current.label ?? 'SQL editor',
            'data-testid': latest.current.testId ?? 'sql-editor',
          }),
          EditorView.updateListener.of((u) => {
            if (u.docChanged) latest.current.onChange(u.state.doc.toString());
          }),
        ],
      }),
    });
    view.current = v;
    return () => v.destroy();
    // The editor is created once per catalog list; its text is owned by CodeMirror after that.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [props.catalogs.join(',')]);
  return <div ref={host} className="sql-editor" />;
}
