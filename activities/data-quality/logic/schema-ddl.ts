/** A column list in DDL (`a INT, b STRING` or `STRUCT<a: INT, b: STRING>`): names and upper-case types. */
export interface DdlField {
  name: string;
  type: string;
}

function splitTop(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of text) {
    if (ch === '<' || ch === '(') depth++;
    if (ch === '>' || ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      out.push(cur);
      cur = '';
    } else cur += ch;
  }
  out.push(cur);
  return out;
}

export function parseSchemaDdl(ddl: string): DdlField[] | null {
  let body = ddl.trim();
  const struct = /^struct\s*<([\s\S]*)>$/i.exec(body);
  if (struct) body = struct[1];
  const fields: DdlField[] = [];
  for (const part of splitTop(body)) {
    const m = /^\s*(`(?:[^`]|``)+`|[A-Za-z_][A-Za-z0-9_]*)\s*:?\s*([A-Za-z][\s\S]*?)\s*$/.exec(part);
    if (!m) return null;
    const name = m[1].startsWith('`') ? m[1].slice(1, -1).replace(/``/g, '`') : m[1];
    fields.push({ name, type: m[2].replace(/\s+/g, '').toUpperCase() });
  }
  return fields.length ? fields : null;
}

const SYNONYMS: Record<string, string> = {
  INTEGER: 'INT',
  LONG: 'BIGINT',
  SHORT: 'SMALLINT',
  BYTE: 'TINYINT',
  REAL: 'FLOAT',
  DEC: 'DECIMAL',
  VARCHAR: 'STRING',
  TEXT: 'STRING',
};

/** A type as comparable text: upper case, no spaces, synonyms folded (INTEGER = INT, LONG = BIGINT). */
export function canonicalType(type: string): string {
  const t = type.replace(/\s+/g, '').toUpperCase();
  const base = /^[A-Z_]+/.exec(t)?.[0] ?? t;
  const folded = SYNONYMS[base];
  if (base === 'VARCHAR' || base === 'CHAR') return 'STRING';
  return folded ? folded + t.slice(base.length) : t;
}

/** Columns as DDL that parseSchemaDdl reads back: every name back-quoted. */
export function toSchemaDdl(columns: DdlField[]): string {
  return columns.map((c) => `\`${c.name.replace(/`/g, '``')}\` ${c.type}`).join(', ');
}
