import { InvalidInputError } from '../../errors';

/** Databricks type text ↔ DuckDB type text, for casts (writes, macros) and for reporting query column types. */

const TO_DUCK: Record<string, string> = {
  bigint: 'BIGINT',
  long: 'BIGINT',
  int: 'INTEGER',
  integer: 'INTEGER',
  smallint: 'SMALLINT',
  short: 'SMALLINT',
  tinyint: 'TINYINT',
  byte: 'TINYINT',
  double: 'DOUBLE',
  float: 'FLOAT',
  real: 'FLOAT',
  boolean: 'BOOLEAN',
  string: 'VARCHAR',
  binary: 'BLOB',
  date: 'DATE',
  timestamp: 'TIMESTAMP WITH TIME ZONE',
  timestamp_ntz: 'TIMESTAMP',
  void: 'VARCHAR',
  interval: 'INTERVAL',
  decimal: 'DECIMAL(10,0)',
  variant: 'JSON',
};

/** Splits `a, b<c,d>, e` at top-level commas. */
export function splitTopLevel(text: string, sep = ','): string[] {
  const parts: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of text) {
    if (ch === '<' || ch === '(') depth++;
    if (ch === '>' || ch === ')') depth--;
    if (ch === sep && depth === 0) {
      parts.push(cur.trim());
      cur = '';
    } else cur += ch;
  }
  if (cur.trim()) parts.push(cur.trim());
  return parts;
}

export function databricksToDuck(type: string): string {
  const t = type.trim();
  const lower = t.toLowerCase();
  if (TO_DUCK[lower]) return TO_DUCK[lower];
  let m = /^decimal\s*\(\s*(\d+)\s*(?:,\s*(\d+)\s*)?\)$/i.exec(t);
  if (m) return `DECIMAL(${m[1]},${m[2] ?? 0})`;
  if (/^(var)?char\s*\(\s*\d+\s*\)$/i.test(t)) return 'VARCHAR';
  m = /^array\s*<(.*)>$/is.exec(t);
  if (m) return `${databricksToDuck(m[1])}[]`;
  m = /^map\s*<(.*)>$/is.exec(t);
  if (m) {
    const [k, v] = splitTopLevel(m[1]);
    return `MAP(${databricksToDuck(k)}, ${databricksToDuck(v)})`;
  }
  m = /^struct\s*<(.*)>$/is.exec(t);
  if (m) {
    const fields = splitTopLevel(m[1]).map((f) => {
      const i = f.indexOf(':');
      if (i < 0) throw new InvalidInputError(`invalid struct field ${JSON.stringify(f)} in type ${type}`);
      const name = f.slice(0, i).trim().replace(/^`|`$/g, '');
      return `"${name.replace(/"/g, '""')}" ${databricksToDuck(f.slice(i + 1))}`;
    });
    return `STRUCT(${fields.join(', ')})`;
  }
  throw new InvalidInputError(`unsupported column type ${JSON.stringify(type)}`);
}

const FROM_DUCK: Record<string, string> = {
  BIGINT: 'bigint',
  INTEGER: 'int',
  SMALLINT: 'smallint',
  TINYINT: 'tinyint',
  HUGEINT: 'decimal(38,0)',
  UBIGINT: 'decimal(20,0)',
  UINTEGER: 'bigint',
  USMALLINT: 'int',
  UTINYINT: 'smallint',
  DOUBLE: 'double',
  FLOAT: 'float',
  BOOLEAN: 'boolean',
  VARCHAR: 'string',
  BLOB: 'binary',
  DATE: 'date',
  UUID: 'string',
  JSON: 'string',
  'TIMESTAMP WITH TIME ZONE': 'timestamp',
  TIMESTAMP: 'timestamp_ntz',
  TIMESTAMP_S: 'timestamp_ntz',
  TIMESTAMP_MS: 'timestamp_ntz',
  TIMESTAMP_NS: 'timestamp_ntz',
  INTERVAL: 'interval',
  '"NULL"': 'void',
  NULL: 'void',
  TIME: 'string',
};

export function duckToDatabricks(type: string): string {
  const t = type.trim();
  if (FROM_DUCK[t]) return FROM_DUCK[t];
  let m = /^DECIMAL\((\d+),\s*(\d+)\)$/.exec(t);
  if (m) return `decimal(${m[1]},${m[2]})`;
  if (t.endsWith('[]')) return `array<${duckToDatabricks(t.slice(0, -2))}>`;
  m = /^\w+\[\d+\]$/.exec(t);
  if (m) return `array<${duckToDatabricks(t.replace(/\[\d+\]$/, ''))}>`;
  m = /^MAP\((.*)\)$/s.exec(t);
  if (m) {
    const [k, v] = splitTopLevel(m[1]);
    return `map<${duckToDatabricks(k)},${duckToDatabricks(v)}>`;
  }
  m = /^STRUCT\((.*)\)$/s.exec(t);
  if (m) {
    const fields = splitTopLevel(m[1]).map((f) => {
      const fm = /^("(?:[^"]|"")*"|\S+)\s+(.*)$/s.exec(f);
      const name = fm ? fm[1].replace(/^"|"$/g, '').replace(/""/g, '"') : f;
      return `${name}:${duckToDatabricks(fm ? fm[2] : 'VARCHAR')}`;
    });
    return `struct<${fields.join(',')}>`;
  }
  return t.toLowerCase();
}
