import { InvalidInputError } from '../../errors';

/**
 * Checks for SQL text that users hand us (predicates, view bodies, check expressions, queries).
 * They are spliced into statements, so they must be exactly one statement (or expression): no `;`
 * outside quotes, no unterminated quote or comment that would swallow the rest of our statement.
 */
interface Scan {
  /** Text with comments blanked out and string/identifier contents kept. */
  code: string;
  /** Offsets of `;` outside quotes and comments. */
  semicolons: number[];
}

function scan(text: string, what: string): Scan {
  let code = '';
  const semicolons: number[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    const next = text[i + 1];
    if (ch === '-' && next === '-') {
      const end = text.indexOf('\n', i);
      i = end === -1 ? text.length : end;
      code += ' ';
    } else if (ch === '/' && next === '*') {
      const end = text.indexOf('*/', i + 2);
      if (end === -1) throw new InvalidInputError(`${what}: unterminated /* comment`);
      i = end + 2;
      code += ' ';
    } else if (ch === "'" || ch === '"' || ch === '`') {
      let j = i + 1;
      for (;;) {
        if (j >= text.length) throw new InvalidInputError(`${what}: unterminated ${ch} quote`);
        if (ch !== '`' && text[j] === '\\') j += 2;
        else if (text[j] === ch && ch === '`' && text[j + 1] === '`') j += 2;
        else if (text[j] === ch) break;
        else j += 1;
      }
      code += text.slice(i, j + 1);
      i = j + 1;
    } else {
      if (ch === ';') semicolons.push(code.length);
      code += ch;
      i += 1;
    }
  }
  return { code, semicolons };
}

/**
 * A single expression or statement, returned with comments removed (a trailing `-- note` would
 * otherwise swallow the `)` or clause we append) and without a trailing `;`.
 */
export function singleStatement(text: string, what: string): string {
  if (typeof text !== 'string' || text.trim() === '') throw new InvalidInputError(`${what} must not be empty`);
  const { code, semicolons } = scan(text, what);
  const body = code.trim();
  const last = semicolons.length > 0 && body.endsWith(';') ? 1 : 0;
  if (semicolons.length > last) throw new InvalidInputError(`${what} must be a single statement (found ';')`);
  const result = last ? body.slice(0, -1).trimEnd() : body;
  if (result === '') throw new InvalidInputError(`${what} must not be empty`);
  return result;
}

const READ_KEYWORDS = new Set([
  'SELECT',
  'WITH',
  'SHOW',
  'DESCRIBE',
  'DESC',
  'EXPLAIN',
  'VALUES',
  'TABLE',
  'FROM',
  'LIST',
]);

/**
 * Read-only check for the SQL workbench: the first keyword must start a query. The warehouse still
 * enforces privileges; this keeps an accidental write from running under the service's identity.
 */
export function readOnlyQuery(text: string): string {
  const code = singleStatement(text, 'query');
  const first = /^[\s(]*([A-Za-z]+)/.exec(code)?.[1]?.toUpperCase();
  if (!first || !READ_KEYWORDS.has(first)) {
    throw new InvalidInputError(
      `query must be read-only (SELECT, WITH, SHOW, DESCRIBE, EXPLAIN, VALUES); got ${first ?? 'no keyword'}`,
    );
  }
  return code;
}

/** Column and return types: `bigint`, `decimal(10,2)`, `array<struct<a:int,b:string>>`, `map<string,int>`. */
const TYPE_TEXT = /^[A-Za-z][A-Za-z0-9_]*(\s*[(<][A-Za-z0-9_,:<>()\s`]*[)>])?(\s+NOT\s+NULL)?$/i;

export function typeText(type: string, what: string): string {
  if (typeof type !== 'string' || !TYPE_TEXT.test(type.trim())) {
    throw new InvalidInputError(`${what}: invalid data type ${JSON.stringify(type)}`);
  }
  return type.trim();
}

/** Privileges are keywords (`SELECT`, `USE CATALOG`, `ALL PRIVILEGES`), never quoted, so they are checked. */
export function privilege(p: string): string {
  const text = typeof p === 'string' ? p.trim().toUpperCase().replace(/\s+/g, ' ') : '';
  if (!/^[A-Z][A-Z_ ]{0,63}$/.test(text)) throw new InvalidInputError(`invalid privilege ${JSON.stringify(p)}`);
  return text;
}
