/**
 * A small Markdown reader for notebook cells: headings, paragraphs, bullet and numbered lists, fenced code,
 * block quotes, inline code, bold, italic and http(s) links. It returns a tree of blocks and inline runs (no HTML
 * strings), which MarkdownView renders as React elements, so a cell's text can never inject markup.
 */
export type Inline =
  | { kind: 'text'; text: string }
  | { kind: 'code'; text: string }
  | { kind: 'strong' | 'em'; children: Inline[] }
  | { kind: 'link'; href: string; children: Inline[] };

export type Block =
  | { kind: 'heading'; level: 1 | 2 | 3 | 4 | 5 | 6; children: Inline[] }
  | { kind: 'paragraph'; children: Inline[] }
  | { kind: 'quote'; children: Inline[] }
  | { kind: 'list'; ordered: boolean; items: Inline[][] }
  | { kind: 'code'; text: string };

const INLINE = /(`[^`]+`)|(\*\*[^*]+\*\*|__[^_]+__)|(\*[^*\s][^*]*\*|_[^_\s][^_]*_)|(\[[^\]]+\]\([^)\s]+\))/;

export function parseInline(text: string): Inline[] {
  const out: Inline[] = [];
  let rest = text;
  while (rest) {
    const m = INLINE.exec(rest);
    if (!m) {
      out.push({ kind: 'text', text: rest });
      break;
    }
    if (m.index > 0) out.push({ kind: 'text', text: rest.slice(0, m.index) });
    const [tok] = m;
    if (m[1]) out.push({ kind: 'code', text: tok.slice(1, -1) });
    else if (m[2]) out.push({ kind: 'strong', children: parseInline(tok.slice(2, -2)) });
    else if (m[3]) out.push({ kind: 'em', children: parseInline(tok.slice(1, -1)) });
    else {
      const [, label, href] = /^\[([^\]]+)\]\(([^)\s]+)\)$/.exec(tok)!;
      if (/^https?:\/\//i.test(href)) out.push({ kind: 'link', href, children: parseInline(label) });
      else out.push({ kind: 'text', text: tok }); // only web links; javascript: and the like stay text
    }
    rest = rest.slice(m.index + tok.length);
  }
  return out;
}

export function parseMarkdown(source: string): Block[] {
  const lines = source.replace(/\r\n?/g, '\n').split('\n');
  const blocks: Block[] = [];
  let para: string[] = [];
  const flush = () => {
    if (para.length) blocks.push({ kind: 'paragraph', children: parseInline(para.join(' ')) });
    para = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (/^\s*```/.test(line)) {
      flush();
      const code: string[] = [];
      for (i++; i < lines.length && !/^\s*```/.test(lines[i]); i++) code.push(lines[i]);
      blocks.push({ kind: 'code', text: code.join('\n') });
      continue;
    }
    const heading = /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      flush();
      const level = heading[1].length as 1 | 2 | 3 | 4 | 5 | 6;
      blocks.push({ kind: 'heading', level, children: parseInline(heading[2]) });
      continue;
    }
    const item = /^\s*([-*+]|\d+[.)])\s+(.*)$/.exec(line);
    if (item) {
      flush();
      const ordered = /\d/.test(item[1]);
      const last = blocks[blocks.length - 1];
      const text = parseInline(item[2]);
      if (last?.kind === 'list' && last.ordered === ordered && /^\s*([-*+]|\d+[.)])\s/.test(lines[i - 1] ?? ''))
        last.items.push(text);
      else blocks.push({ kind: 'list', ordered, items: [text] });
      continue;
    }
    const quote = /^\s*>\s?(.*)$/.exec(line);
    if (quote) {
      flush();
      blocks.push({ kind: 'quote', children: parseInline(quote[1]) });
      continue;
    }
    if (!line.trim()) flush();
    else para.push(line.trim());
  }
  flush();
  return blocks;
}
