/**
 * A custom_sql step's write statement as one table write of the platform port (pure parsing; the port has no
 * free-form write SQL, and its `query` refuses writes): INSERT INTO … SELECT | WITH | VALUES, INSERT OVERWRITE
 * [TABLE] … SELECT | WITH, DELETE FROM … [WHERE], UPDATE … SET col = expr, … [WHERE].
 */

const NAME = '(?:`[^`]+`|[A-Za-z0-9_$-]+)';
const FQN = `(${NAME}\\.${NAME}\\.${NAME})`;

export type TableWrite =
  | { kind: 'insert' | 'overwrite'; fqn: string; query: string }
  | { kind: 'delete'; fqn: string; predicate: string }
  | { kind: 'update'; fqn: string; set: Record<string, string>; predicate: string };

const unquote = (fqn: string) => fqn.replace(/`/g, '');

/** Splits on commas outside parentheses and quotes. */
function splitTop(s: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quote: string | null = null;
  let cur = '';
  for (const ch of s) {
    if (quote) {
      if (ch === quote) quote = null;
    } else if (ch === "'" || ch === '"' || ch === '`') quote = ch;
    else if (ch === '(') depth++;
    else if (ch === ')') depth--;
    else if (ch === ',' && depth === 0) {
      out.push(cur);
      cur = '';
      continue;
    }
    cur += ch;
  }
  out.push(cur);
  return out.map((x) => x.trim());
}

/** The write a statement stands for, or null when it is not one of the forms above. */
export function tableWriteOf(sql: string): TableWrite | null {
  const text = sql.trim().replace(/;\s*$/, '');
  let m = new RegExp(`^insert\\s+into\\s+${FQN}\\s+((?:select|with|values)\\b[\\s\\S]*)$`, 'i').exec(text);
  if (m) return { kind: 'insert', fqn: unquote(m[1]), query: m[2] };
  m = new RegExp(`^insert\\s+overwrite\\s+(?:table\\s+)?${FQN}\\s+((?:select|with)\\b[\\s\\S]*)$`, 'i').exec(text);
  if (m) return { kind: 'overwrite', fqn: unquote(m[1]), query: m[2] };
  m = new RegExp(`^delete\\s+from\\s+${FQN}(?:\\s+where\\s+([\\s\\S]+))?$`, 'i').exec(text);
  if (m) return { kind: 'delete', fqn: unquote(m[1]), predicate: m[2] ?? 'TRUE' };
  m = new RegExp(`^update\\s+${FQN}\\s+set\\s+([\\s\\S]+?)(?:\\s+where\\s+([\\s\\S]+))?$`, 'i').exec(text);
  if (m) {
    const set: Record<string, string> = {};
    for (const a of splitTop(m[2])) {
      const eq = /^(`[^`]+`|[A-Za-z_][A-Za-z0-9_]*)\s*=\s*([\s\S]+)$/.exec(a);
      if (!eq) return null;
      set[eq[1].replace(/`/g, '')] = eq[2];
    }
    return { kind: 'update', fqn: unquote(m[1]), set, predicate: m[3] ?? 'TRUE' };
  }
  return null;
}
