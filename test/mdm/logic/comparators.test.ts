import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { compareColumn, gammaExpr, gammaFromMetrics, metricsSelect } from '../../../activities/mdm/logic/match-sql';
import { compareExpr, standardiseExpr } from '../../../activities/mdm/logic/standardise';
import { prng } from '../../../activities/mdm/logic/synthetic';
import { syntheticModel } from '../../../activities/mdm/logic/synthetic-model';
import { LocalWorkspace } from '../../../platform/local/workspace';

const PY = path.resolve(__dirname, '../../../.venv/bin/python');

/** Names and emails with the typos a matcher meets: swaps, drops, inserts, replacements, case and empties. */
function corpus(n: number): [string, string][] {
  const r = prng(7);
  const words = [
    'robert',
    'roberta',
    'bob',
    'katherine',
    'catherine',
    'kathryn',
    'jon',
    'john',
    'jonathan',
    'smith',
    'smyth',
    'schmidt',
    'martha',
    'marhta',
    'dwayne',
    'duane',
    'dixon',
    'dicksonx',
    'o brien',
    'obrien',
    'zoë',
    'zoe',
    'ann.lee@example.com',
    'anne.lee@example.com',
    'a.lee@example.org',
    '',
    'x',
    'müller',
    'mueller',
  ];
  const pick = () => words[Math.floor(r() * words.length)];
  const mutate = (w: string) => {
    if (!w) return w;
    const i = Math.floor(r() * w.length);
    const c = 'abcdefghijklmnopqrstuvwxyz'[Math.floor(r() * 26)];
    switch (Math.floor(r() * 4)) {
      case 0:
        return w.slice(0, i) + w.slice(i + 1);
      case 1:
        return w.slice(0, i) + c + w.slice(i);
      case 2:
        return w.slice(0, i) + c + w.slice(i + 1);
      default:
        return i + 1 < w.length ? w.slice(0, i) + w[i + 1] + w[i] + w.slice(i + 2) : w;
    }
  };
  const raw = Array.from({ length: n }, (_, k): [string, string] => {
    const a = pick();
    return [a, k % 3 === 0 ? pick() : mutate(r() < 0.5 ? a : mutate(a))];
  });
  // As ingest leaves them: names lower-case a–z and single spaces, emails trimmed lower case, blanks NULL (never
  // compared). DuckDB counts UTF-8 bytes where rapidfuzz counts code points, so this ASCII form is what agrees.
  const standard = (v: string) =>
    v.includes('@')
      ? v.trim().toLowerCase()
      : v
          .toLowerCase()
          .replace(/[^a-z ]/g, '')
          .replace(/ +/g, ' ')
          .trim();
  return raw.map(([a, b]): [string, string] => [standard(a), standard(b)]).filter(([a, b]) => a !== '' && b !== '');
}

test("DuckDB's jaro_winkler_similarity and levenshtein (the comparison levels' functions) agree with rapidfuzz on standardised values", async () => {
  const pairs = corpus(400);
  expect(pairs.length).toBeGreaterThan(350);
  const db = await DuckDBInstance.create(':memory:');
  const conn = await db.connect();
  const values = pairs.map(([a, b]) => `('${a.replace(/'/g, "''")}', '${b.replace(/'/g, "''")}')`).join(', ');
  const reader = await conn.runAndReadAll(
    `SELECT jaro_winkler_similarity(a, b) AS jw, levenshtein(a, b) AS lev FROM (VALUES ${values}) AS p(a, b)`,
  );
  const duck = reader.getRowObjects().map((r) => ({ jw: Number(r.jw), lev: Number(r.lev) }));
  conn.closeSync();
  const script = `import json, sys
from rapidfuzz.distance import JaroWinkler, Levenshtein
print(json.dumps([{"jw": JaroWinkler.similarity(a, b), "lev": Levenshtein.distance(a, b)} for a, b in json.load(sys.stdin)]))`;
  const fuzz = JSON.parse(execFileSync(PY, ['-c', script], { input: JSON.stringify(pairs), encoding: 'utf8' })) as {
    jw: number;
    lev: number;
  }[];
  const differing = pairs
    .map((p, i) => ({ pair: p, duck: duck[i], fuzz: fuzz[i] }))
    .filter((x) => Math.abs(x.duck.jw - x.fuzz.jw) > 1e-9 || x.duck.lev !== x.fuzz.lev);
  expect(differing).toEqual([]);
  // the corpus reaches every level of the synthetic model's thresholds
  const jws = fuzz.map((f) => f.jw);
  expect(jws.some((x) => x >= 0.92 && x < 1)).toBe(true);
  expect(jws.some((x) => x >= 0.8 && x < 0.92)).toBe(true);
  expect(jws.some((x) => x < 0.8)).toBe(true);
  expect(fuzz.some((f) => f.lev > 0 && f.lev <= 2)).toBe(true);
});

test('comparison levels from each function computed once per pair equal the levels of the CASE over the functions', async () => {
  const model = syntheticModel();
  const root = mkdtempSync(path.join(os.tmpdir(), 'lw-levels-'));
  const ws = new LocalWorkspace({ root, user: 'lakeward' });
  try {
    await ws.createCatalog({ name: 'c', ifNotExists: true });
    await ws.createSchema({ catalog: 'c', name: 's', ifNotExists: true });
    const people = [
      ['1', 'robert', 'smith', '1980-01-02', 'bob@x.com', '5551234567', '10001', 'A1'],
      ['2', 'roberta', 'smyth', '1980-01-03', 'bob@x.co', '5551234568', '10001', null],
      ['3', 'bob', 'smith', '1981-01-02', null, '5551234567', '10002', 'A1'],
      ['4', null, 'schmidt', '1979-12-30', 'rs@y.org', null, null, 'B2'],
      ['5', 'robert', 'smith', '1980-01-02', 'bob@x.com', '5551234567', '10001', 'A1'],
      ['6', 'katherine', 'o brien', '1990-06-01', 'kob@z.net', '5559876543', '20002', 'C3'],
      // given and family name swapped; an email far longer than the others (its edit distance is not computed)
      ['7', 'smith', 'robert', '1980-01-02', 'robert.smith.at.home@x.com', '5551234567', '10001', null],
    ];
    const attrs = Object.keys(model.attributes);
    const cell = (v: string | null) => (v === null ? 'CAST(NULL AS STRING)' : `'${v}'`);
    const rows = people.map(
      (p) => `SELECT '${p[0]}' AS uid, ${attrs.map((a, i) => `${cell(p[i + 1])} AS ${a}`).join(', ')}`,
    );
    await ws.createTableAs({ ref: { catalog: 'c', schema: 's', name: 'raw' }, query: rows.join(' UNION ALL ') });
    // as the work table holds them: names also in their accent-free comparison form
    const names = attrs.filter((a) => model.attributes[a].kind === 'name');
    const folded = names.map((a) => `${compareExpr('name', a)} AS ${compareColumn(model, a)}`).join(', ');
    await ws.createTableAs({
      ref: { catalog: 'c', schema: 's', name: 'recs' },
      query: `SELECT *, ${folded} FROM c.s.raw`,
    });
    const from = 'c.s.recs l JOIN c.s.recs r ON l.uid < r.uid';
    const direct = await ws.query(
      `SELECT l.uid AS a, r.uid AS b, ${attrs.map((a) => `${gammaExpr(model, a)} AS ${a}`).join(', ')} FROM ${from} ORDER BY a, b`,
    );
    const once = await ws.query(
      `SELECT a, b, ${attrs.map((a) => `${gammaFromMetrics(model, a)} AS ${a}`).join(', ')} FROM ` +
        `(SELECT l.uid AS a, r.uid AS b, ${metricsSelect(model)} FROM ${from}) m ORDER BY a, b`,
    );
    expect(once.rows.map((r) => ({ ...r }))).toEqual(direct.rows.map((r) => ({ ...r })));
    // the pairs reach more than the extreme levels
    expect(new Set(direct.rows.map((r) => Number(r.first_name))).size).toBeGreaterThan(3);
    // names written in each other's place agree on both (the top level), so the hard identifier does not cap them
    const swapped = direct.rows.find((r) => r.a === '1' && r.b === '7');
    expect([swapped?.first_name, swapped?.last_name, swapped?.email]).toEqual([3, 3, 0]);
  } finally {
    await ws.close();
    rmSync(root, { recursive: true, force: true });
  }
});

test('names keep their accents and compare without them', async () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'lw-accents-'));
  const ws = new LocalWorkspace({ root, user: 'lakeward' });
  try {
    const raw = ['  José  MÜLLER-Łukasz ', 'Zoë Ångström', 'Jose Muller', 'Søren Çelik', 'Dvořák', 'e\u0301lodie'];
    const values = raw.map((v) => `SELECT '${v}' AS n`).join(' UNION ALL ');
    const std = standardiseExpr('name', 'n', 'string');
    const rows = (
      await ws.query(`SELECT n, s, ${compareExpr('name', 's')} AS c FROM (SELECT n, ${std} AS s FROM (${values}) v) x`)
    ).rows;
    const by = Object.fromEntries(rows.map((r) => [String(r.n), [r.s, r.c]]));
    expect(by['  José  MÜLLER-Łukasz ']).toEqual(['josé müllerłukasz', 'jose mullerlukasz']);
    expect(by['Zoë Ångström']).toEqual(['zoë ångström', 'zoe angstrom']);
    expect(by['Jose Muller']).toEqual(['jose muller', 'jose muller']);
    expect(by['Søren Çelik']).toEqual(['søren çelik', 'soren celik']);
    expect(by['Dvořák']).toEqual(['dvořák', 'dvorak']);
    // a decomposed accent (e + U+0301) is kept in the value and dropped for comparison
    expect(by['e\u0301lodie']).toEqual(['e\u0301lodie', 'elodie']);
  } finally {
    await ws.close();
    rmSync(root, { recursive: true, force: true });
  }
});
