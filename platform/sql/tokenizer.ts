import { InvalidInputError } from '../errors';

/** SQL that cannot be tokenized (an unterminated quote or comment): invalid input wherever it came from. */
export class SqlTokenError extends InvalidInputError {}

/**
 * A small tokenizer for Databricks SQL, pure (no I/O): the local lakehouse's rewrites and the data-quality SQL
 * guard share it. Rewrites (name resolution, dialect fixes) work on tokens, so string
 * literals, comments and quoted names are never touched by accident.
 */
export type TokenType = 'ws' | 'comment' | 'string' | 'qident' | 'ident' | 'number' | 'punct';

export interface Token {
  type: TokenType;
  /** Source text. */
  text: string;
  /** Decoded content for strings and quoted identifiers; the text otherwise. */
  value: string;
}

const PUNCT3 = ['<=>'];
const PUNCT2 = ['<>', '!=', '>=', '<=', '||', '==', '::', '->', '=>'];
const IDENT_START = /[A-Za-z_\u0080-\uffff]/;
const IDENT_PART = /[A-Za-z0-9_$\u0080-\uffff]/;
const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', '0': '\0', Z: '\x1a' };

function readQuoted(sql: string, start: number, quote: string, backslash: boolean): { end: number; value: string } {
  let value = '';
  let i = start + 1;
  while (i < sql.length) {
    const ch = sql[i];
    if (backslash && ch === '\\' && i + 1 < sql.length) {
      const next = sql[i + 1];
      value += ESCAPES[next] ?? next;
      i += 2;
    } else if (ch === quote) {
      if (sql[i + 1] === quote) {
        value += quote;
        i += 2;
      } else {
        return { end: i + 1, value };
      }
    } else {
      value += ch;
      i++;
    }
  }
  throw new SqlTokenError(`unterminated ${quote === '`' ? 'quoted identifier' : 'string literal'} in SQL`);
}

export function tokenize(sql: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  const push = (type: TokenType, end: number, value?: string) => {
    const text = sql.slice(i, end);
    out.push({ type, text, value: value ?? text });
    i = end;
  };
  while (i < sql.length) {
    const ch = sql[i];
    const two = sql.slice(i, i + 2);
    if (/\s/.test(ch)) {
      let j = i + 1;
      while (j < sql.length && /\s/.test(sql[j])) j++;
      push('ws', j);
    } else if (two === '--') {
      const j = sql.indexOf('\n', i);
      push('comment', j < 0 ? sql.length : j);
    } else if (two === '/*') {
      const j = sql.indexOf('*/', i + 2);
      if (j < 0) throw new SqlTokenError('unterminated comment in SQL');
      push('comment', j + 2);
    } else if (ch === "'" || ch === '"') {
      const { end, value } = readQuoted(sql, i, ch, true);
      push('string', end, value);
    } else if (ch === '`') {
      const { end, value } = readQuoted(sql, i, '`', false);
      push('qident', end, value);
    } else if (/[0-9]/.test(ch) || (ch === '.' && /[0-9]/.test(sql[i + 1] ?? ''))) {
      const m = /^(\d*\.?\d+(?:[eE][+-]?\d+)?|\d+\.)(BD|[LSYDF])?(?![A-Za-z0-9_])/i.exec(sql.slice(i));
      if (m) push('number', i + m[0].length);
      else {
        // Names may start with a digit (`2024_sales`): read it as an identifier.
        let j = i + 1;
        while (j < sql.length && IDENT_PART.test(sql[j])) j++;
        push('ident', j);
      }
    } else if (IDENT_START.test(ch)) {
      let j = i + 1;
      while (j < sql.length && IDENT_PART.test(sql[j])) j++;
      push('ident', j);
    } else if (PUNCT3.includes(sql.slice(i, i + 3))) {
      push('punct', i + 3);
    } else if (PUNCT2.includes(two)) {
      push('punct', i + 2);
    } else {
      push('punct', i + 1);
    }
  }
  return out;
}

export const isName = (t: Token | undefined): t is Token => !!t && (t.type === 'ident' || t.type === 'qident');
export const isWord = (t: Token | undefined, word: string): boolean =>
  !!t && t.type === 'ident' && t.value.toUpperCase() === word;
export const isPunct = (t: Token | undefined, p: string): boolean => !!t && t.type === 'punct' && t.text === p;
export const significant = (t: Token): boolean => t.type !== 'ws' && t.type !== 'comment';
