/**
 * A small SQL tokenizer that finds dotted identifier chains (`cat.schema.obj`, `` `cat`.`s`.`o` ``) while
 * skipping string literals and comments. Catalog references inside view and function bodies are rewritten
 * on these chains, never by substring replacement: `preprod.x.y` and `'prod.x.y'` survive cloning `prod`.
 */

type Token =
  | { kind: 'ident'; text: string; value: string; quoted: boolean; start: number; end: number }
  | { kind: 'dot' | 'lparen' | 'other'; text: string; start: number; end: number };

const IDENT_START = /[A-Za-z_]/;
const IDENT_PART = /[A-Za-z0-9_$]/;

function skipString(sql: string, i: number, quote: string): number {
  let j = i + 1;
  while (j < sql.length) {
    const ch = sql[j];
    if (ch === '\\') j += 2;
    else if (ch === quote && sql[j + 1] === quote) j += 2;
    else if (ch === quote) return j + 1;
    else j += 1;
  }
  return sql.length;
}

export function tokenize(sql: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  while (i < sql.length) {
    const ch = sql[i];
    if (/\s/.test(ch)) {
      i += 1;
    } else if (ch === '-' && sql[i + 1] === '-') {
      const nl = sql.indexOf('\n', i);
      i = nl < 0 ? sql.length : nl + 1;
    } else if (ch === '/' && sql[i + 1] === '*') {
      const close = sql.indexOf('*/', i + 2);
      i = close < 0 ? sql.length : close + 2;
    } else if (ch === "'" || ch === '"') {
      const end = skipString(sql, i, ch);
      out.push({ kind: 'other', text: sql.slice(i, end), start: i, end });
      i = end;
    } else if (ch === '`') {
      let j = i + 1;
      let value = '';
      while (j < sql.length) {
        if (sql[j] === '`' && sql[j + 1] === '`') {
          value += '`';
          j += 2;
        } else if (sql[j] === '`') break;
        else value += sql[j++];
      }
      const end = Math.min(j + 1, sql.length);
      out.push({ kind: 'ident', text: sql.slice(i, end), value, quoted: true, start: i, end });
      i = end;
    } else if (IDENT_START.test(ch)) {
      let j = i + 1;
      while (j < sql.length && IDENT_PART.test(sql[j])) j += 1;
      out.push({ kind: 'ident', text: sql.slice(i, j), value: sql.slice(i, j), quoted: false, start: i, end: j });
      i = j;
    } else if (/[0-9]/.test(ch)) {
      // Numbers (including `1.5` and `1e3`) are one token so their dots never join identifier chains.
      let j = i + 1;
      while (j < sql.length && /[0-9A-Za-z_.]/.test(sql[j])) j += 1;
      out.push({ kind: 'other', text: sql.slice(i, j), start: i, end: j });
      i = j;
    } else {
      const kind = ch === '.' ? 'dot' : ch === '(' ? 'lparen' : 'other';
      out.push({ kind, text: ch, start: i, end: i + 1 });
      i += 1;
    }
  }
  return out;
}

export interface IdentChain {
  parts: string[];
  /** Token positions of each part in the source text. */
  spans: { start: number; end: number; quoted: boolean }[];
  /** The chain is followed by `(`: a function call. */
  isCall: boolean;
}

/** Maximal `a.b.c` chains of identifiers. A chain that starts right after a dot is part of a longer one. */
export function identifierChains(sql: string): IdentChain[] {
  const tokens = tokenize(sql);
  const chains: IdentChain[] = [];
  let k = 0;
  while (k < tokens.length) {
    const tok = tokens[k];
    if (tok.kind !== 'ident' || (k > 0 && tokens[k - 1].kind === 'dot')) {
      k += 1;
      continue;
    }
    const chain: IdentChain = {
      parts: [tok.value],
      spans: [{ start: tok.start, end: tok.end, quoted: tok.quoted }],
      isCall: false,
    };
    let m = k + 1;
    while (m + 1 < tokens.length && tokens[m].kind === 'dot' && tokens[m + 1].kind === 'ident') {
      const part = tokens[m + 1] as Extract<Token, { kind: 'ident' }>;
      chain.parts.push(part.value);
      chain.spans.push({ start: part.start, end: part.end, quoted: part.quoted });
      m += 2;
    }
    chain.isCall = tokens[m]?.kind === 'lparen';
    chains.push(chain);
    k = m;
  }
  return chains;
}

function sameName(a: string, b: string): boolean {
  return a.toLowerCase() === b.toLowerCase();
}

/** Words that would read as SQL keywords (or statements) if written bare; such catalog names get backticks. */
const KEYWORDS = new Set(
  (
    'all alter and any as between by case cast copy create cross current delete describe distinct drop else end except exists false ' +
    'fetch for from full grant group having in inner insert intersect interval into is join lateral left like limit merge natural ' +
    'not null of on optimize or order outer overwrite revoke right select set show table then to true truncate union update ' +
    'using vacuum values view when where window with'
  ).split(' '),
);

function quoteLike(name: string, quoted: boolean): string {
  const bareOk = /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && !KEYWORDS.has(name.toLowerCase());
  return quoted || !bareOk ? '`' + name.replace(/`/g, '``') + '`' : name;
}

/**
 * Rewrites the catalog part of every three-or-more-part name whose catalog is `from` to `to`. Two-part
 * names (`schema.table`) resolve in the current catalog and are left alone.
 */
export function rewriteCatalogRefs(sql: string, from: string, to: string): string {
  if (sameName(from, to)) return sql;
  const edits = identifierChains(sql)
    .filter((c) => c.parts.length >= 3 && sameName(c.parts[0], from))
    .map((c) => c.spans[0]);
  let out = sql;
  for (const span of edits.sort((a, b) => b.start - a.start)) {
    out = out.slice(0, span.start) + quoteLike(to, span.quoted) + out.slice(span.end);
  }
  return out;
}

export interface ObjectReference {
  catalog: string | null;
  schema: string | null;
  name: string;
  isCall: boolean;
}

/** Objects a view or function body may name: the first three parts of every chain (callers match them). */
export function objectReferences(sql: string): ObjectReference[] {
  return identifierChains(sql).map((c) => {
    const [a, b, d] = c.parts;
    if (c.parts.length >= 3) return { catalog: a, schema: b, name: d, isCall: c.isCall };
    if (c.parts.length === 2) return { catalog: null, schema: a, name: b, isCall: c.isCall };
    return { catalog: null, schema: null, name: a, isCall: c.isCall };
  });
}
