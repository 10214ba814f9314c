import { withRowLimit } from '../../platform/sql/row-limit';

describe('withRowLimit', () => {
  it('appends LIMIT on its own line, after a trailing comment and without the trailing semicolon', () => {
    expect(withRowLimit('SELECT a FROM t', 11)).toBe('SELECT a FROM t\nLIMIT 11');
    expect(withRowLimit('SELECT a FROM t ORDER BY a -- newest', 3)).toBe(
      'SELECT a FROM t ORDER BY a -- newest\nLIMIT 3',
    );
    expect(withRowLimit('SELECT 1 AS a, 2 AS a;', 5)).toBe('SELECT 1 AS a, 2 AS a\nLIMIT 5');
  });

  it('leaves a query with its own outer LIMIT, OFFSET or FETCH as it is', () => {
    for (const sql of [
      'SELECT a FROM t LIMIT 3',
      'SELECT a FROM t ORDER BY a OFFSET 2',
      'SELECT a FROM t FETCH FIRST 2 ROWS ONLY',
      '(SELECT a FROM t) UNION ALL (SELECT a FROM u) limit 4',
    ])
      expect(withRowLimit(sql, 10)).toBe(sql);
  });

  it('limits a query whose LIMIT is inside a subquery, a CTE, a string or a comment', () => {
    expect(withRowLimit('WITH x AS (SELECT a FROM t LIMIT 2) SELECT * FROM x', 7)).toMatch(/\nLIMIT 7$/);
    expect(withRowLimit("SELECT 'LIMIT 3' AS s", 7)).toMatch(/\nLIMIT 7$/);
    expect(withRowLimit('SELECT a /* LIMIT 3 */ FROM t', 7)).toMatch(/\nLIMIT 7$/);
  });

  it('refuses a limit that is not a non-negative integer', () => {
    expect(() => withRowLimit('SELECT 1', -1)).toThrow(RangeError);
    expect(() => withRowLimit('SELECT 1', 1.5)).toThrow(RangeError);
  });
});
