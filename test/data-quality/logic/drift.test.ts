import {
  CHECK_FUNCTIONS,
  generateChecks,
  normalizeCheck,
  profileDrift,
  type DqCheck,
  type Profile,
} from '../../../activities/data-quality/logic';
import { col, FQN, ordersProfile } from './profiles';

function stored(id: string, fn: string, args: Record<string, unknown>, table_fqn = FQN): DqCheck {
  const r = normalizeCheck({ id, table_fqn, check_function: fn, arguments: args });
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  return r.check[0];
}

/** The orders table after a release: `note` dropped, `discount` added, status no longer low-cardinality, amount no longer nullable. */
function afterRelease(): Profile {
  const before = ordersProfile();
  const keep = before.columns.filter((c) => c.name !== 'note');
  return {
    ...before,
    columns: [
      ...keep.map((c) => (c.name === 'status' ? { ...c, distinct: 40 } : c.name === 'amount' ? { ...c, nulls: 0 } : c)),
      col('discount', 'double', { distinct: 50, min: 0, max: 0.5 }),
    ],
  };
}

const CHECKS = [
  stored('c-id', 'is_unique', { columns: ['order_id'] }),
  stored('c-status', 'is_in_list', { column: 'status', allowed: ['open', 'shipped', 'cancelled'] }),
  stored('c-note', 'is_not_null', { column: 'note' }),
  stored('c-expr', 'sql_expression', { expression: 'note IS NULL OR amount > 0', columns: ['note', 'amount'] }),
  stored('other-table', 'is_not_null', { column: 'note' }, 'main.sales.returns'),
];

describe('profile drift', () => {
  it('after adding and removing a column: new_column, removed_column with its orphan checks, changed_pattern, uncovered', () => {
    const drift = profileDrift(ordersProfile(), afterRelease(), CHECKS);
    expect(drift.table_fqn).toBe(FQN);
    expect(drift.new_columns).toEqual(['discount']);
    expect(drift.removed_columns).toEqual(['note']);
    expect(
      drift.recommendations.map((r) => [r.type, r.severity, r.column, r.suggested_check?.name ?? r.orphan_check_ids]),
    ).toEqual([
      ['removed_column', 'warning', 'note', ['c-note', 'c-expr']],
      ['new_column', 'info', 'discount', 'is_not_null_discount'],
      ['changed_pattern', 'info', 'status', undefined],
      ['changed_pattern', 'info', 'amount', 'is_not_null_amount'],
      ['uncovered', 'info', 'ordered_on', 'is_not_null_ordered_on'],
      ['uncovered', 'info', 'customer_email', 'is_not_null_and_not_empty_customer_email'],
    ]);
    expect(drift.total_recommendations).toBe(6);
    const status = drift.recommendations[2];
    expect(status.description).toContain('[is_not_null_and_not_empty, is_in_list]');
    expect(status.description).toContain('now [is_not_null_and_not_empty]');
  });

  it('every suggested check is a real DQX function for this table, and never one the table already has', () => {
    const names = new Set(CHECK_FUNCTIONS.map((f) => f.name));
    const existing = [...CHECKS, stored('c-amount', 'is_not_null', { column: 'amount' })];
    const drift = profileDrift(ordersProfile(), afterRelease(), existing);
    for (const r of drift.recommendations) {
      if (!r.suggested_check) continue;
      expect(names.has(r.suggested_check.check_function)).toBe(true);
      expect(r.suggested_check.table_fqn).toBe(FQN);
    }
    const amount = drift.recommendations.find((r) => r.column === 'amount');
    expect(amount).toMatchObject({ type: 'changed_pattern' });
    expect(amount?.suggested_check).toBeUndefined();
  });

  it('without a previous profile there is no baseline: only uncovered columns are reported', () => {
    const drift = profileDrift(null, ordersProfile(), CHECKS);
    expect(drift.new_columns).toEqual([]);
    expect(drift.removed_columns).toEqual([]);
    expect(drift.recommendations.map((r) => [r.type, r.column])).toEqual([
      ['uncovered', 'ordered_on'],
      ['uncovered', 'customer_email'],
    ]);
  });

  it('an unchanged, fully covered table has nothing to recommend; a removed column without checks is only listed', () => {
    const profile = ordersProfile();
    const covered = generateChecks(profile, FQN).concat(stored('c-note', 'is_not_null', { column: 'note' }));
    expect(profileDrift(profile, ordersProfile(), covered).recommendations).toEqual([]);
    const withoutNote = { ...profile, columns: profile.columns.filter((c) => c.name !== 'note') };
    const drift = profileDrift(profile, withoutNote, generateChecks(profile, FQN));
    expect(drift.removed_columns).toEqual(['note']);
    expect(drift.recommendations).toEqual([]);
  });
});
