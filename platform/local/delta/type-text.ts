import { InvalidInputError } from '../../errors';

/** A parsed Databricks type: `bigint`, `decimal(10,2)`, `array<int>`, `map<string,int>`, `struct<a:int>`. */
export type TypeNode =
  | { kind: 'primitive'; name: string }
  | { kind: 'decimal'; precision: number; scale: number }
  | { kind: 'array'; element: TypeNode }
  | { kind: 'map'; key: TypeNode; value: TypeNode }
  | { kind: 'struct'; fields: { name: string; type: TypeNode }[] };

const PRIMITIVES = new Set([
  'bigint',
  'int',
  'smallint',
  'tinyint',
  'double',
  'float',
  'boolean',
  'string',
  'binary',
  'date',
  'timestamp',
  'timestamp_ntz',
  'void',
]);
const ALIASES: Record<string, string> = {
  long: 'bigint',
  integer: 'int',
  short: 'smallint',
  byte: 'tinyint',
  real: 'float',
  bool: 'boolean',
  varchar: 'string',
  char: 'string',
  timestamp_ltz: 'timestamp',
};

/** Parses Databricks type text; throws InvalidInputError naming the text when it is not a supported type. */
export function parseTypeText(text: string): TypeNode {
  const p = { s: text, i: 0 };
  const node = parseNode(p);
  skipSpace(p);
  if (p.i !== p.s.length) throw bad(text);
  return node;
}

function bad(text: string): InvalidInputError {
  return new InvalidInputError(`unsupported column type '${text}'`);
}

function skipSpace(p: { s: string; i: number }): void {
  while (p.i < p.s.length && /\s/.test(p.s[p.i])) p.i++;
}

function expect(p: { s: string; i: number }, ch: string): void {
  skipSpace(p);
  if (p.s[p.i] !== ch) throw bad(p.s);
  p.i++;
}

function word(p: { s: string; i: number }): string {
  skipSpace(p);
  const m = /^[A-Za-z_][A-Za-z0-9_]*/.exec(p.s.slice(p.i));
  if (!m) throw bad(p.s);
  p.i += m[0].length;
  return m[0];
}

function num(p: { s: string; i: number }): number {
  skipSpace(p);
  const m = /^\d+/.exec(p.s.slice(p.i));
  if (!m) throw bad(p.s);
  p.i += m[0].length;
  return Number(m[0]);
}

function fieldName(p: { s: string; i: number }): string {
  skipSpace(p);
  if (p.s[p.i] !== '`') return word(p);
  const end = p.s.indexOf('`', p.i + 1);
  if (end < 0) throw bad(p.s);
  const name = p.s.slice(p.i + 1, end);
  p.i = end + 1;
  return name;
}

function parseNode(p: { s: string; i: number }): TypeNode {
  const raw = word(p).toLowerCase();
  const name = ALIASES[raw] ?? raw;
  skipSpace(p);
  if (name === 'decimal' || name === 'numeric' || name === 'dec') {
    if (p.s[p.i] !== '(') return { kind: 'decimal', precision: 10, scale: 0 };
    p.i++;
    const precision = num(p);
    skipSpace(p);
    let scale = 0;
    if (p.s[p.i] === ',') {
      p.i++;
      scale = num(p);
    }
    expect(p, ')');
    if (!(precision >= 1 && precision <= 38 && scale >= 0 && scale <= precision)) throw bad(p.s);
    return { kind: 'decimal', precision, scale };
  }
  if (name === 'string' && p.s[p.i] === '(') {
    p.i = p.s.indexOf(')', p.i) + 1; // varchar(n)/char(n) are strings in Delta
    return { kind: 'primitive', name };
  }
  if (name === 'array') {
    expect(p, '<');
    const element = parseNode(p);
    expect(p, '>');
    return { kind: 'array', element };
  }
  if (name === 'map') {
    expect(p, '<');
    const key = parseNode(p);
    expect(p, ',');
    const value = parseNode(p);
    expect(p, '>');
    return { kind: 'map', key, value };
  }
  if (name === 'struct') {
    expect(p, '<');
    const fields: { name: string; type: TypeNode }[] = [];
    skipSpace(p);
    while (p.s[p.i] !== '>') {
      const fname = fieldName(p);
      expect(p, ':');
      fields.push({ name: fname, type: parseNode(p) });
      skipSpace(p);
      if (p.s[p.i] === ',') p.i++;
      else if (p.s[p.i] !== '>') throw bad(p.s);
      skipSpace(p);
    }
    p.i++;
    return { kind: 'struct', fields };
  }
  if (!PRIMITIVES.has(name)) throw bad(p.s);
  return { kind: 'primitive', name };
}

/** Canonical Databricks text of a parsed type. */
export function typeText(node: TypeNode): string {
  switch (node.kind) {
    case 'primitive':
      return node.name;
    case 'decimal':
      return `decimal(${node.precision},${node.scale})`;
    case 'array':
      return `array<${typeText(node.element)}>`;
    case 'map':
      return `map<${typeText(node.key)},${typeText(node.value)}>`;
    case 'struct':
      return `struct<${node.fields.map((f) => `${/^[A-Za-z_][A-Za-z0-9_]*$/.test(f.name) ? f.name : `\`${f.name}\``}:${typeText(f.type)}`).join(',')}>`;
  }
}
