import { pairKind, preflightRefusal, rejectedPairs } from '../../../activities/convert/logic/plan';

test('the matrix: every pair', () => {
  const F = ['DELTA', 'ICEBERG', 'PARQUET', 'HUDI'] as const;
  const table = F.map((s) => F.map((t) => pairKind(s, t, false)));
  expect(table).toEqual([
    ['identity', 'uniform', 'ctas_parquet', 'rejected'],
    ['convert_to_delta', 'identity', 'ctas_parquet', 'rejected'],
    ['convert_to_delta', 'ctas_iceberg', 'identity', 'rejected'],
    ['rejected', 'rejected', 'rejected', 'identity'],
  ]);
  expect(pairKind('DELTA', 'ICEBERG', true)).toBe('ctas_iceberg');
  expect(rejectedPairs([{ fqn: 'a.b.c', source_format: 'HUDI', target_format: 'DELTA' }])).toEqual([
    'a.b.c (HUDI→DELTA)',
  ]);
});

test('preflight: hidden partitioning for any target; generated columns only to ICEBERG or PARQUET', () => {
  const none = { icebergTransforms: [], generatedColumns: [] };
  expect(preflightRefusal('ICEBERG', 'DELTA', { ...none, icebergTransforms: ['identity'] })).toBeNull();
  expect(preflightRefusal('ICEBERG', 'PARQUET', { ...none, icebergTransforms: ['years'] })).toMatch(
    /hidden partitioning \(years\)/,
  );
  expect(preflightRefusal('DELTA', 'ICEBERG', { ...none, generatedColumns: ['g'] })).toMatch(
    /generated or identity columns \(g\)/,
  );
  expect(preflightRefusal('DELTA', 'DELTA', { ...none, generatedColumns: ['g'] })).toBeNull();
});
