import { checkPattern, patternSql, recluster } from '../../../activities/mdm/logic/negative-match';

const attrs = ['first_name', 'email', 'dob'];

test('a pattern passes the allow-list only with a.<attribute>/b.<attribute>, literals, operators and listed functions', () => {
  expect(checkPattern('lower(a.first_name) <> lower(b.first_name) AND a.dob = b.dob', attrs)).toBeNull();
  expect(checkPattern("a.email LIKE '%@corp.com' AND b.`email` IS NOT NULL", attrs)).toBeNull();
  expect(checkPattern('a.email = b.email; DELETE FROM t', attrs)).toMatch(/without ;/);
  expect(checkPattern('a.email IN (SELECT email FROM t)', attrs)).toMatch(/subquery/);
  expect(checkPattern('a.salary = b.salary', attrs)).toMatch(/not an attribute/);
  expect(checkPattern('c.email = b.email', attrs)).toMatch(/c is not allowed/);
  expect(checkPattern("read_csv('/etc/passwd') = a.email", attrs)).toMatch(/not allowed/);
  expect(checkPattern('a.email = b.email -- x', attrs)).toMatch(/comments/);
  expect(checkPattern("'x' = 'y'", attrs)).toMatch(/compare attributes/);
  expect(checkPattern('(a.email = b.email', attrs)).toMatch(/unbalanced/);
});

test('a checked pattern becomes SQL over the two records, names quoted and literals re-quoted', () => {
  expect(patternSql("a.email = 'o''brien' AND b.dob IS NULL", 'l', 'r')).toBe(
    "l.`email` = 'o\\'brien' AND r.`dob` IS NULL",
  );
});

test('re-clustering joins the strongest edges first and refuses merges a rule forbids, directly or transitively', () => {
  // x - y - z in one component (x–y 99, y–z 80): a rule keeps x and z apart, so y joins x (stronger) and z stays alone.
  const records = ['x', 'y', 'z', 'w'].map((uid) => ({ uid, label: 'w' }));
  const edges = [
    { a: 'y', b: 'z', score: 80 },
    { a: 'x', b: 'y', score: 99 },
    { a: 'w', b: 'x', score: 97 },
  ];
  const { labels, blocked } = recluster(records, edges, [
    { rule_id: 'R1', a: 'x', b: 'z' },
    { rule_id: 'R2', a: 'z', b: 'w' },
  ]);
  expect(Object.fromEntries(labels)).toEqual({ w: 'w', x: 'w', y: 'w', z: 'z' });
  // both rules refused the one merge of z, in one component: each counts once
  expect(blocked).toEqual({ R1: 1, R2: 1 });
});
