import { describe, expect, it } from 'vitest';
import { parseInline, parseMarkdown } from './markdown';

describe('notebook markdown', () => {
  it('reads headings, paragraphs, lists, quotes and fenced code', () => {
    const blocks = parseMarkdown(
      '# Orders\n\nThe **daily** orders,\nby region.\n\n- one\n- two\n\n1. first\n> note\n```\nSELECT 1\n```',
    );
    expect(blocks.map((b) => b.kind)).toEqual(['heading', 'paragraph', 'list', 'list', 'quote', 'code']);
    expect(blocks[0]).toEqual({ kind: 'heading', level: 1, children: [{ kind: 'text', text: 'Orders' }] });
    expect(blocks[1]).toMatchObject({
      kind: 'paragraph',
      children: [{ text: 'The ' }, { kind: 'strong' }, { text: ' orders, by region.' }],
    });
    expect(blocks[2]).toMatchObject({ kind: 'list', ordered: false, items: [[{ text: 'one' }], [{ text: 'two' }]] });
    expect(blocks[3]).toMatchObject({ kind: 'list', ordered: true });
    expect(blocks[5]).toEqual({ kind: 'code', text: 'SELECT 1' });
  });

  it('links only http(s) addresses; anything else stays text', () => {
    expect(parseInline('[docs](https://example.com/x)')).toEqual([
      { kind: 'link', href: 'https://example.com/x', children: [{ kind: 'text', text: 'docs' }] },
    ]);
    expect(parseInline('[x](javascript:alert(1))')[0]).toMatchObject({ kind: 'text' });
    expect(parseInline('a `b*c*` d')).toEqual([
      { kind: 'text', text: 'a ' },
      { kind: 'code', text: 'b*c*' },
      { kind: 'text', text: ' d' },
    ]);
  });
});
