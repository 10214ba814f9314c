/**
 * Tokens of a plain-English rule: words (identifiers, any case), numerals, quoted strings ('…', "…" or `…`),
 * commas, parentheses and comparison signs. Pure.
 */
export type TokenKind = 'word' | 'number' | 'string' | 'ident' | 'punct';
export interface Token {
  kind: TokenKind;
  text: string;
  /** Lower-case text of a word (for matching). */
  lower: string;
}

const PATTERNS: [TokenKind | null, RegExp][] = [
  [null, /^\s+/],
  ['string', /^'((?:[^'\\]|\\.|'')*)'/],
  ['string', /^"((?:[^"\\]|\\.)*)"/],
  ['ident', /^`((?:[^`]|``)+)`/],
  ['number', /^-?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?[kmb]?(?![A-Za-z0-9_])/i],
  ['punct', /^(>=|<=|!=|==|[,()=<>.;:])/],
  ['word', /^[A-Za-z_][A-Za-z0-9_']*/],
];

export class LexError extends Error {}

export function tokenize(text: string): Token[] {
  const out: Token[] = [];
  let rest = text;
  while (rest.length) {
    let matched = false;
    for (const [kind, re] of PATTERNS) {
      const m = re.exec(rest);
      if (!m) continue;
      matched = true;
      rest = rest.slice(m[0].length);
      if (!kind) break;
      const body =
        kind === 'string'
          ? m[1].replace(/''/g, "'").replace(/\\([\\'"])/g, '$1')
          : kind === 'ident'
            ? m[1].replace(/``/g, '`')
            : m[0];
      out.push({ kind, text: body, lower: body.toLowerCase() });
      break;
    }
    if (!matched) throw new LexError(`cannot read "${rest.slice(0, 20)}"`);
  }
  // A sentence may end with a full stop.
  while (out.length && out[out.length - 1].kind === 'punct' && ['.', ';'].includes(out[out.length - 1].text)) out.pop();
  return out;
}
