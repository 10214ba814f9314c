import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { initialParams } from '../../../activities/mdm/logic/em';
import {
  attributesOf,
  bandsSql,
  blockingCountsSql,
  levelCount,
  liveRecordsSql,
  matchTables,
  pairsSql,
  patternCountsSql,
  samplePatternsSql,
  scoredPairsSql,
  workSql,
  incrementalCandidatesSql,
} from '../../../activities/mdm/logic/match-sql';
import {
  dirtyEdgesSql,
  dirtyRecordsSql,
  incrementalLabelsSql,
  seedsSql,
} from '../../../activities/mdm/logic/cluster-incremental-sql';
import { incrementalAssignSql, keptGoldenSql } from '../../../activities/mdm/logic/publish-incremental-sql';
import {
  allLabelsSql,
  assignSql,
  edgesSql,
  labelChangesSql,
  labelStepSql,
  linkedLabelsSql,
} from '../../../activities/mdm/logic/cluster-sql';
import { evaluateSql, goldenSql, membersSql, publishCountsSql } from '../../../activities/mdm/logic/golden-sql';
import { componentsSql, relabelSql, violationsSql } from '../../../activities/mdm/logic/negative-match';
import { conflictsSql, reviewCasesSql, suspectedCasesSql } from '../../../activities/mdm/logic/match-cases';
import { ingestSql, recordsTable } from '../../../activities/mdm/logic/standardise';
import { syntheticModel, syntheticSources } from '../../../activities/mdm/logic/synthetic-model';

const PY = path.resolve(__dirname, '../../../.venv/bin/python');
const model = syntheticModel();
const t = matchTables('clone_audit', 'person');
const params = initialParams(attributesOf(model).map((a) => levelCount(model, a)));

/** Every statement a match run and an ingest send, as the Databricks adapter would send them. */
const statements: [string, string][] = [
  ['work', workSql(model, t)],
  ['blocking counts', blockingCountsSql(model, t)],
  ['blocking analysis', blockingCountsSql(model, t, liveRecordsSql(model, t))],
  ['candidate pairs', pairsSql(model, t, 'run-1')],
  ['incremental work', workSql(model, t, { runId: 'run-2', modelKey: 'k', previous: t.work })],
  ['incremental candidate pairs', pairsSql(model, t, 'run-2', true)],
  [
    'incremental scores',
    scoredPairsSql(model, t, params, [['crm:1', 'erp:2']], 'run-2', incrementalCandidatesSql(model, t)),
  ],
  ['dirty seeds', seedsSql(t, 'run-2')],
  ['dirty records', dirtyRecordsSql(t, 'run-2')],
  ['dirty edges', dirtyEdgesSql(t, t.dirty)],
  [
    'incremental labels',
    incrementalLabelsSql(
      t,
      t.dirty,
      'run-2',
      new Map([
        ['crm:1', 'crm:1'],
        ['erp:2', 'crm:1'],
      ]),
    ),
  ],
  ['incremental assignment', incrementalAssignSql(model, t, 'run-2', { entityIds: ['GR-1'], uids: ['crm:1'] })],
  ['incremental golden', goldenSql(model, t, 'run-2', 'person', '2026-01-01T00:00:00Z', true, keptGoldenSql(model, t))],
  ['pattern counts', patternCountsSql(model, t)],
  ['u sample', samplePatternsSql(model, t, 42, 1000)],
  ['scores', scoredPairsSql(model, t, params)],
  ['scores with approved pairs', scoredPairsSql(model, t, params, [['crm:1', 'erp:2']], 'run-1')],
  ['bands', bandsSql(t, 50)],
  ['match review cases', reviewCasesSql(model, t, 'run-1')],
  ['suspected duplicate cases', suspectedCasesSql(model, t)],
  ['conflicts', conflictsSql(model, t)],
  ['edges', edgesSql(t)],
  ['linked labels', linkedLabelsSql(t)],
  ['label step', labelStepSql(t, t.linkedA)],
  ['label changes', labelChangesSql(t.linkedA, t.linkedB)],
  ['all labels', allLabelsSql(t, t.linkedA, 'run-1')],
  ['first assignment', assignSql(t, t.labels, 'run-1', false)],
  ['stable ids', assignSql(t, t.labels, 'run-2', true)],
  ['first golden', goldenSql(model, t, 'run-1', 'person', '2026-01-01T00:00:00Z', false)],
  ['golden', goldenSql(model, t, 'run-2', 'person', '2026-01-01T00:00:00Z', true)],
  ['members', membersSql(t, 'run-2')],
  ['publish counts', publishCountsSql(t, 'run-2')],
  ['evaluate', evaluateSql(t, 'raw.people.truth')],
  [
    'negative-match violations',
    violationsSql(t, t.labels, [
      { id: 'NMR-1', type: 'pair', members: [['crm:1'], ['erp:2']], predicate: null },
      { id: 'NMR-2', type: 'group', members: [['crm:1', 'web:3'], ['erp:2'], ['web:9']], predicate: null },
      { id: 'NMR-3', type: 'pattern', members: [], predicate: 'lower(a.email) <> b.email AND a.dob IS NOT NULL' },
    ])!,
  ],
  ['re-clustered records', componentsSql(t, t.labels, ['crm:1']).records],
  ['re-clustered edges', componentsSql(t, t.labels, ['crm:1']).edges],
  ['relabel', relabelSql(t.labels, [{ uid: 'erp:2', label: 'erp:2' }])],
  ...syntheticSources('raw', 'people').flatMap((s): [string, string][] => {
    const sql = ingestSql(
      model,
      s,
      { birth_date: 'date' },
      recordsTable('clone_audit', 'person'),
      'i1',
      '2026-01-01T00:00:00Z',
    );
    return [
      [`${s.system} stats`, sql.stats],
      [`${s.system} insert`, sql.insert],
      [`${s.system} changed`, sql.changed],
      [`${s.system} superseded`, `DELETE FROM x WHERE ${sql.supersededPredicate}`],
    ];
  }),
];

test('the SQL of an ingest and a match run, as sent to Databricks, parses with sqlglot', () => {
  const parse = `import json, sys, sqlglot
out = []
for sql in json.load(sys.stdin):
    try:
        sqlglot.parse_one(sql, read="databricks"); out.append(None)
    except Exception as e:
        out.append(str(e)[:300])
print(json.dumps(out))`;
  const result = JSON.parse(
    execFileSync(PY, ['-c', parse], { input: JSON.stringify(statements.map((s) => s[1])), encoding: 'utf8' }),
  ) as (string | null)[];
  expect(statements.map(([name], i) => [name, result[i]])).toEqual(statements.map(([name]) => [name, null]));
});

test('comparison levels use the functions both engines have, and hard identifiers cap the score', () => {
  const pairs = pairsSql(model, t, 'run-1');
  // each function once per pair, then the levels from it
  expect(pairs).toContain(
    'jaro_winkler_similarity(l.`first_name__cmp`, r.`first_name__cmp`) END AS `m_jaro_winkler_first_name`',
  );
  expect(pairs).toContain('WHEN `m_jaro_winkler_first_name` >= 0.92 THEN 2 WHEN `m_jaro_winkler_first_name` >= 0.8');
  // an edit distance is computed only when the lengths allow one within the largest level
  expect(pairs).toContain(
    'WHEN abs(length(l.`email`) - length(r.`email`)) > 2 THEN 3 ELSE levenshtein(l.`email`, r.`email`) END END AS `m_levenshtein_email`',
  );
  expect(pairs).toContain('`m_levenshtein_email` <= 2');
  expect(pairs).toContain('abs(datediff(CAST(l.`dob` AS DATE), CAST(r.`dob` AS DATE))) END AS `m_date_distance_dob`');
  expect(pairs).toContain('`m_date_distance_dob` <= 366');
  // rules are OR-ed: a pair counts under the first rule blocking it (dob before phone), once
  expect(pairs).toContain('GROUP BY lo, hi');
  expect(pairs).toContain("CASE q.ri WHEN 0 THEN 'dob' WHEN 1 THEN 'phone'");
  const scored = scoredPairsSql(model, t, params);
  expect(scored).toContain('`g_first_name` = 0 OR `g_national_id` = 0 THEN least(');
});
