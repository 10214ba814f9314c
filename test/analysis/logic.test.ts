import { diffProperties } from '../../activities/analysis/logic/diff';
import { catalogHealth, dashboardStats, jobMetrics, type JobFacts } from '../../activities/analysis/logic/job-stats';
import { definitionEdges, reachable, referencedObjects, riskLevel } from '../../activities/analysis/logic/lineage';
import { pairRows } from '../../activities/analysis/logic/samples';

const at = (iso: string) => new Date(iso);
const job = (over: Partial<JobFacts>): JobFacts => ({
  jobId: 'clone-1',
  jobType: 'clone',
  status: 'completed',
  sourceCatalog: 'prod',
  destinationCatalog: 'dev',
  createdAt: at('2026-11-20T10:00:00Z'),
  startedAt: at('2026-11-20T10:00:00Z'),
  completedAt: at('2026-11-20T10:00:10Z'),
  summary: { tables_cloned: 5, bytes_copied: 1000 },
  ...over,
});

test('throughput is copied tables and bytes over the seconds jobs ran; failure rate over finished jobs', () => {
  const jobs = [
    job({}),
    job({ jobId: 'clone-2', status: 'failed', summary: { tables_cloned: 0, bytes_copied: 0 } }),
    job({ jobId: 'clone-3', status: 'running', completedAt: null }),
  ];
  const m = jobMetrics(jobs);
  expect(m).toMatchObject({
    total_jobs: 3,
    finished_jobs: 2,
    failed_jobs: 1,
    failure_rate: 0.5,
    avg_duration_seconds: 10,
  });
  expect(m.throughput).toEqual({
    tables_per_second: 0.25,
    bytes_per_second: 50,
    tables_copied: 5,
    bytes_copied: 1000,
    busy_seconds: 20,
  });
  expect(m.trends).toEqual([{ date: '2026-11-20', jobs: 2, failed: 1, failure_rate: 0.5, avg_duration_seconds: 10 }]);
});

test('catalog health counts each catalog a job read or wrote; the score is the success share', () => {
  const h = catalogHealth([
    job({}),
    job({ jobId: 'clone-2', status: 'failed', createdAt: at('2026-11-21T00:00:00Z'), destinationCatalog: 'qa' }),
  ]);
  expect(h.map((c) => [c.catalog, c.total, c.succeeded, c.failed, c.score, c.last_operation.job_id])).toEqual([
    ['dev', 1, 1, 0, 100, 'clone-1'],
    ['prod', 2, 1, 1, 50, 'clone-2'],
    ['qa', 1, 0, 1, 0, 'clone-2'],
  ]);
  expect(dashboardStats([job({})], at('2026-11-20T12:00:00Z'))).toMatchObject({
    total_jobs: 1,
    by_status: { completed: 1 },
    last_24h: { jobs: 1, failed: 0 },
  });
});

test('properties: delta.* engine properties are ignored, user properties that differ are reported', () => {
  expect(
    diffProperties(
      { 'delta.minReaderVersion': '1', quality: 'gold', team: 'a' },
      { 'delta.minReaderVersion': '3', 'delta.enableDeletionVectors': 'true', quality: 'gold', owner: 'x' },
    ),
  ).toEqual([
    { key: 'owner', source: null, dest: 'x' },
    { key: 'team', source: 'a', dest: null },
  ]);
});

test('lineage edges come from parsed references: strings, comments and columns are not tables', () => {
  const edges = definitionEdges({
    catalog: 'c',
    relations: ['c.s.orders', 'c.s.region', 'c.s.v'],
    views: [
      {
        schema: 's',
        name: 'v',
        definition:
          "SELECT region FROM orders -- c.s.gone\nWHERE note = 'c.s.region' AND x IN (SELECT 1 FROM other.t.u)",
      },
    ],
    functions: [
      { schema: 's', name: 'f', body: 'c.s.g(x) + 1' },
      { schema: 's', name: 'g', body: 'x * 2' },
    ],
  });
  expect(edges.map((e) => `${e.source}>${e.target}:${e.kind}`)).toEqual([
    'c.s.orders>c.s.v:view',
    'other.t.u>c.s.v:view',
    'c.s.g>c.s.f:function',
  ]);
  expect(reachable(edges, ['c.s.orders'], 'down')).toEqual(['c.s.v']);
});

test('risk levels follow the written rules', () => {
  expect([0, 1, 3, 10, 25].map((n) => riskLevel(n, 0).level)).toEqual(['none', 'low', 'medium', 'high', 'critical']);
  expect(riskLevel(1, 1).level).toBe('medium');
});

test('sample pairs mark differing cells, and a row on one side only differs in every column', () => {
  const { rows, differences } = pairRows(
    [
      { id: 1, v: 'a' },
      { id: 2, v: 'b' },
    ],
    [{ id: 1, v: 'x' }],
  );
  expect(differences).toBe(2);
  expect(rows.map((r) => r.differing_columns)).toEqual([['v'], ['id', 'v']]);
});

test('references: quoted and mixed-case names, JOINs, numbers and broken SQL', () => {
  const known = new Set(['c.s.orders', 'c.s.my table', 'c.t.x']);
  const home = { catalog: 'c', schema: 's' };
  expect(
    referencedObjects(
      'SELECT 1.5 AS n FROM `C`.`s`.`my table` a JOIN Orders b ON a.id = b.id JOIN t.x USING (id)',
      home,
      known,
    ),
  ).toEqual(['c.s.my table', 'c.s.orders', 'c.t.x']);
  expect(referencedObjects("SELECT * FROM orders WHERE x = 'unterminated", home, known)).toEqual([]);
});
