/** The planned statements in a dry-run clone's result: the longest list of SQL-looking strings in it. */
export function plannedStatements(result: unknown): string[] {
  let best: string[] = [];
  const visit = (v: unknown, depth: number) => {
    if (depth > 6 || v === null || typeof v !== 'object') return;
    if (Array.isArray(v)) {
      const sql = v.filter(
        (x): x is string =>
          typeof x === 'string' && /^\s*(CREATE|ALTER|INSERT|GRANT|COMMENT|DROP|SET|MERGE|COPY|USE)\b/i.test(x),
      );
      if (sql.length > best.length) best = sql;
      v.forEach((x) => visit(x, depth + 1));
      return;
    }
    Object.values(v).forEach((x) => visit(x, depth + 1));
  };
  visit(result, 0);
  return best;
}
