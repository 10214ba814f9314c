/**
 * Databricks SQL text: identifiers in backticks (embedded backticks doubled), string literals with backslash
 * escapes (Spark reads `''` as two adjacent literals, not an escaped quote).
 */
export function ident(name: string): string {
  return '`' + name.replace(/`/g, '``') + '`';
}

const ESCAPES: Record<string, string> = { '\\': '\\\\', "'": "\\'", '\n': '\\n', '\r': '\\r', '\t': '\\t' };

export function lit(value: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what this escapes
  const body = value.replace(/[\\'\n\r\t]|[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/g, (ch) => {
    return ESCAPES[ch] ?? `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
  return `'${body}'`;
}

/** A finite number as SQL text; anything else is refused earlier by argument validation. */
export function num(value: number): string {
  if (!Number.isFinite(value)) throw new Error(`not a finite number: ${value}`);
  return String(value);
}

/** A scalar argument (number, boolean, string) as a SQL literal. */
export function scalar(value: unknown): string {
  if (typeof value === 'number') return num(value);
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (value === null || value === undefined) return 'NULL';
  return lit(String(value));
}

/** Splits `catalog.schema.table` (parts may be backticked) into its parts. */
export function splitFqn(fqn: string): string[] {
  const parts: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < fqn.length; i++) {
    const ch = fqn[i];
    if (ch === '`') {
      if (quoted && fqn[i + 1] === '`') {
        cur += '`';
        i++;
      } else quoted = !quoted;
    } else if (ch === '.' && !quoted) {
      parts.push(cur);
      cur = '';
    } else cur += ch;
  }
  parts.push(cur);
  return parts;
}

/** A table name as quoted SQL, or null when it is not three non-empty parts. */
export function tableSql(fqn: string): string | null {
  const parts = splitFqn(fqn);
  if (parts.length !== 3 || parts.some((p) => p.trim() === '')) return null;
  return parts.map(ident).join('.');
}
