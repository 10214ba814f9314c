import type { ReactNode } from 'react';
import { parseMarkdown, type Inline } from './markdown';

function inline(runs: Inline[]): ReactNode[] {
  return runs.map((r, i) => {
    switch (r.kind) {
      case 'text':
        return r.text;
      case 'code':
        return <code key={i}>{r.text}</code>;
      case 'strong':
        return <strong key={i}>{inline(r.children)}</strong>;
      case 'em':
        return <em key={i}>{inline(r.children)}</em>;
      case 'link':
        return (
          <a key={i} href={r.href} target="_blank" rel="noreferrer noopener">
            {inline(r.children)}
          </a>
        );
    }
  });
}

/**
 * A markdown cell as the reader sees it. Its headings sit below the cell's own heading level (h3…h6), so the
 * page's outline stays in order whatever the cell says.
 */
export function MarkdownView({ source, label }: { source: string; label: string }) {
  return (
    <div className="markdown" role="region" aria-label={label} data-testid="markdown-view">
      {parseMarkdown(source).map((b, i) => {
        switch (b.kind) {
          case 'heading': {
            const Tag = `h${Math.min(6, b.level + 2)}` as 'h3';
            return <Tag key={i}>{inline(b.children)}</Tag>;
          }
          case 'paragraph':
            return <p key={i}>{inline(b.children)}</p>;
          case 'quote':
            return <blockquote key={i}>{inline(b.children)}</blockquote>;
          case 'code':
            return (
              <pre key={i}>
                <code>{b.text}</code>
              </pre>
            );
          case 'list': {
            const items = b.items.map((it, k) => <li key={k}>{inline(it)}</li>);
            return b.ordered ? <ol key={i}>{items}</ol> : <ul key={i}>{items}</ul>;
          }
        }
      })}
    </div>
  );
}
