import {
  classifyTable,
  estimatedSeconds,
  mergeKeysOf,
  MERGE_MAX_CHANGE_ROWS,
  selectiveBlock,
  throughputOf,
  DEFAULT_THROUGHPUT,
  type TableFacts,
} from '../../activities/sync/logic/classify';
import { cloneObjectsOf } from '../../activities/sync/logic/catalog-plan';
import { netChanges } from '../../platform/merge-changes';
import type { ChangeRow } from '../../platform/types';

const cols = [
  { name: 'id', type: 'bigint' },
  { name: 'v', type: 'string' },
];
const facts = (f: Partial<TableFacts>): TableFacts => ({
  table: 't',
  currentVersion: 5,
  sizeBytes: 100,
  destinationExists: true,
  recorded: true,
  recordedVersion: 5,
  sourceColumns: cols,
  destinationColumns: cols,
  cdf: false,
  feedChanges: null,
  mergeKeys: ['id'],
  ...f,
});

describe('classifyTable', () => {
  it('compares the recorded source version with the current one, never a destination version', () => {
    expect(classifyTable(facts({}))).toMatchObject({ reason: 'in_sync', needs_sync: false, path: null });
    // A fresh deep clone sits at a low destination version: irrelevant, only the recorded source version counts.
    expect(classifyTable(facts({ currentVersion: 57, recordedVersion: 57 })).reason).toBe('in_sync');
    expect(classifyTable(facts({ currentVersion: 6 }))).toMatchObject({
      reason: 'source_changed',
      path: 'copy',
      recorded_version: 5,
      current_version: 6,
    });
  });

  it('says new, schema_changed, and which path a change takes', () => {
    expect(classifyTable(facts({ destinationExists: false })).reason).toBe('new');
    expect(classifyTable(facts({ recorded: false, recordedVersion: null })).reason).toBe('new');
    const wider = [...cols, { name: 'w', type: 'int' }];
    expect(classifyTable(facts({ currentVersion: 6, sourceColumns: wider })).reason).toBe('schema_changed');
    const retyped = [cols[0], { name: 'v', type: 'int' }];
    expect(classifyTable(facts({ destinationColumns: retyped })).reason).toBe('schema_changed');
    expect(classifyTable(facts({ currentVersion: 6, cdf: true, feedChanges: 3 }))).toMatchObject({
      reason: 'source_changed',
      path: 'merge',
      change_rows: 3,
    });
    // A feed without row changes (OPTIMIZE, properties): nothing to sync.
    expect(classifyTable(facts({ currentVersion: 6, cdf: true, feedChanges: 0 })).reason).toBe('in_sync');
    expect(classifyTable(facts({ currentVersion: 6, cdf: true, feedChanges: 3, mergeKeys: null })).path).toBe('copy');
    expect(classifyTable(facts({ currentVersion: 6, cdf: true, feedChanges: MERGE_MAX_CHANGE_ROWS + 1 })).path).toBe(
      'copy',
    );
    const unreadable = classifyTable(facts({ currentVersion: 6, cdf: true, feedChanges: null, feedError: 'vacuumed' }));
    expect(unreadable).toMatchObject({ path: 'copy' });
    expect(unreadable.detail).toContain('vacuumed');
    // Parquet: no versions, so a recorded copy cannot be checked.
    expect(classifyTable(facts({ currentVersion: null, recordedVersion: null }))).toMatchObject({
      reason: 'source_changed',
      path: 'copy',
    });
  });

  it('finds merge keys from the property or a NOT NULL id column', () => {
    expect(mergeKeysOf([{ name: 'order_id', nullable: false }], {})).toEqual(['order_id']);
    expect(mergeKeysOf([{ name: 'order_id', nullable: true }], {})).toBeNull();
    expect(mergeKeysOf([{ name: 'name', nullable: false }], {})).toBeNull();
    expect(mergeKeysOf([{ name: 'a' }, { name: 'b' }], { 'lakeward.merge_keys': 'a, b' })).toEqual(['a', 'b']);
    expect(mergeKeysOf([{ name: 'a' }], { 'lakeward.merge_keys': 'a,zz' })).toBeNull();
  });
});

describe('selective block and durations', () => {
  it('counts what the check counts and recommends SELECTIVE at ≥ 50 % savings by bytes', () => {
    const s = (needs: boolean, size: number) => ({
      ...classifyTable(facts({ destinationExists: !needs })),
      size_bytes: size,
    });
    expect(selectiveBlock([s(true, 100), s(false, 300)])).toEqual({
      target_exists: true,
      tables_to_clone: 1,
      tables_in_sync: 1,
      savings_pct: 75,
      recommended: 'SELECTIVE',
      size_bytes: 100,
    });
    expect(selectiveBlock([s(true, 300), s(false, 100)])).toMatchObject({ savings_pct: 25, recommended: 'FULL' });
    expect(selectiveBlock([s(true, 0), s(false, 0)])).toMatchObject({ savings_pct: 50, recommended: 'SELECTIVE' });
  });

  it('uses recorded throughput, or the documented defaults before any job', () => {
    expect(throughputOf([])).toEqual({
      bytes_per_second: DEFAULT_THROUGHPUT.bytesPerSecond,
      tables_per_second: DEFAULT_THROUGHPUT.tablesPerSecond,
      source: 'default',
      jobs: 0,
    });
    const t = throughputOf([
      { cloneType: 'DEEP', seconds: 10, bytes: 1000, tables: 10 },
      { cloneType: 'SHALLOW', seconds: 10, bytes: 0, tables: 30 },
    ]);
    expect(t).toEqual({ bytes_per_second: 100, tables_per_second: 2, source: 'history', jobs: 2 });
    expect(estimatedSeconds(4, 500, t)).toEqual({ DEEP: 7, SHALLOW: 2 });
  });
});

describe('netChanges', () => {
  const row = (type: ChangeRow['_change_type'], v: number, id: number, x?: string): ChangeRow => ({
    _change_type: type,
    _commit_version: v,
    _commit_timestamp: 't',
    id,
    x,
  });
  it('keeps the last change per key in version order and drops pre-images', () => {
    const net = netChanges(
      [
        row('update_postimage', 3, 1, 'c'),
        row('insert', 1, 1, 'a'),
        row('update_preimage', 3, 1, 'b'),
        row('insert', 2, 2, 'z'),
        row('delete', 4, 2),
        row('delete', 2, 3),
        row('insert', 5, 3, 'back'),
      ],
      ['id'],
    );
    expect(net.upserts).toEqual([
      { id: 1, x: 'c' },
      { id: 3, x: 'back' },
    ]);
    expect(net.deletes).toEqual([{ id: 2 }]);
  });
});

test('the clone engine gets the tables to copy and the objects to create, never the merged tables', () => {
  const a = (action: string, kind: string, name: string | null, path: 'merge' | 'copy' | null = null) =>
    ({ action, kind, schema: 's', name, path, detail: '' }) as Parameters<typeof cloneObjectsOf>[0][number];
  expect(
    cloneObjectsOf([
      a('create_schema', 'schema', null),
      a('clone_table', 'table', 'n', 'copy'),
      a('resync_table', 'table', 'm', 'merge'),
      a('resync_table', 'table', 'c', 'copy'),
      a('create_view', 'view', 'v'),
      a('drop_table', 'table', 'x'),
      a('keep_extra', 'view', 'y'),
    ]),
  ).toEqual([
    { schema: 's', name: 'n', type: 'table' },
    { schema: 's', name: 'c', type: 'table' },
    { schema: 's', name: 'v', type: 'view' },
  ]);
});
