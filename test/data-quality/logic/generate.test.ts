import {
  checkKey,
  dedupeChecks,
  findCheckFunction,
  generateChecks,
  normalizeCheck,
  type DqCheck,
} from '../../../activities/data-quality/logic';
import { col, FQN, ordersProfile } from './profiles';

const summary = (checks: DqCheck[]) => checks.map((c) => [c.name, c.arguments]);

function stored(input: Record<string, unknown>): DqCheck {
  const r = normalizeCheck({ table_fqn: FQN, ...input });
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  return r.check[0];
}

describe('generating checks from a profile', () => {
  it("follows DQX's generator rules column by column", () => {
    const checks = generateChecks(ordersProfile(), FQN);
    expect(summary(checks)).toEqual([
      ['is_not_null_order_id', { column: 'order_id' }],
      ['is_in_range_order_id', { column: 'order_id', min_limit: 1, max_limit: 1000 }],
      ['is_unique_order_id', { columns: ['order_id'] }],
      ['is_not_null_and_not_empty_status', { column: 'status', trim_strings: true }],
      ['is_in_list_status', { column: 'status', allowed: ['cancelled', 'open', 'shipped'] }],
      ['is_in_range_amount', { column: 'amount', min_limit: 0.5, max_limit: 9999.99 }],
      ['is_not_null_ordered_on', { column: 'ordered_on' }],
      ['is_in_range_ordered_on', { column: 'ordered_on', min_limit: '2024-01-01', max_limit: '2024-12-31' }],
      ['is_not_null_and_not_empty_customer_email', { column: 'customer_email', trim_strings: true }],
      ['is_unique_customer_email', { columns: ['customer_email'] }],
    ]);
    expect(checks.every((c) => c.criticality === 'error' && c.enabled && c.table_fqn === FQN)).toBe(true);
    expect(checks.every((c) => findCheckFunction(c.check_function))).toBe(true);
  });

  it('generating twice from the same profile gives the same set, and dedupe then adds nothing', () => {
    const first = generateChecks(ordersProfile(), FQN);
    const second = generateChecks(ordersProfile(), FQN);
    expect(second).toEqual(first);
    expect(dedupeChecks(first, second)).toEqual([]);
    expect(dedupeChecks([], [...first, ...second])).toEqual(first);
  });

  it('one-sided limits, no list for continuous numbers, no list when the top values miss some', () => {
    const checks = generateChecks(
      {
        table_fqn: FQN,
        row_count: 1000,
        columns: [
          col('floor_only', 'int', { nulls: 1, distinct: 400, min: 0 }),
          col('ceiling_only', 'double', { nulls: 1, distinct: 400, max: 1.5 }),
          col('ratio', 'double', { nulls: 1, distinct: 3, min: 0.1, max: 0.3, top_values: [] }),
          col('code', 'string', { nulls: 1, distinct: 12, top_values: [{ value: 'a', count: 1 }] }),
          col('flag', 'boolean', { distinct: 2, top_values: [{ value: true, count: 600 }] }),
        ],
      },
      FQN,
      { criticality: 'warn', maxInCount: 20 },
    );
    expect(summary(checks)).toEqual([
      ['is_not_less_than_floor_only', { column: 'floor_only', limit: 0 }],
      ['is_not_greater_than_ceiling_only', { column: 'ceiling_only', limit: 1.5 }],
      ['is_in_range_ratio', { column: 'ratio', min_limit: 0.1, max_limit: 0.3 }],
      ['is_not_null_flag', { column: 'flag' }],
    ]);
    expect(checks.every((c) => c.criticality === 'warn')).toBe(true);
  });

  it('a string column with nulls but no empty strings gets is_not_empty; options loosen the thresholds', () => {
    const profile = {
      table_fqn: FQN,
      row_count: 1000,
      columns: [col('city', 'varchar(40)', { nulls: 5, distinct: 800, empty: 0, min_length: 2 })],
    };
    expect(summary(generateChecks(profile, FQN))).toEqual([
      ['is_not_empty_city', { column: 'city', trim_strings: true }],
    ]);
    expect(summary(generateChecks(profile, FQN, { maxNullRatio: 0.01 }))).toEqual([
      ['is_not_null_and_not_empty_city', { column: 'city', trim_strings: true }],
    ]);
  });

  it('refuses a table name that is not catalog.schema.table', () => {
    expect(() => generateChecks(ordersProfile(), 'orders')).toThrow(/table_fqn/);
  });
});

describe('check identity and de-duplication', () => {
  it('the same function, column and arguments are one check, whatever the order, name or criticality', () => {
    const a = stored({ check_function: 'is_in_list', arguments: { column: 'Status', allowed: ['b', 'a'] } });
    const b = stored({
      name: 'renamed',
      criticality: 'warn',
      check_function: 'is_in_list',
      arguments: { allowed: ['a', 'b'], column: 'status' },
    });
    expect(checkKey(a)).toBe(checkKey(b));
    expect(dedupeChecks([a], [b])).toEqual([]);
  });

  it('different arguments, function, table or filter are different checks', () => {
    const base = stored({ check_function: 'is_in_range', arguments: { column: 'x', min_limit: 0, max_limit: 9 } });
    const others = [
      stored({ check_function: 'is_in_range', arguments: { column: 'x', min_limit: 0, max_limit: 10 } }),
      stored({ check_function: 'is_not_in_range', arguments: { column: 'x', min_limit: 0, max_limit: 9 } }),
      stored({ check_function: 'is_in_range', arguments: { column: 'y', min_limit: 0, max_limit: 9 } }),
      { ...base, table_fqn: 'main.sales.other' },
      { ...base, filter: "region = 'EU'" },
    ];
    expect(dedupeChecks([base], others)).toEqual(others);
    // Positional column lists (foreign keys) keep their order; is_unique's columns are a set.
    const fk = (cols: string[], ref: string[]) =>
      stored({ check_function: 'foreign_key', arguments: { columns: cols, ref_columns: ref, ref_table: 'a.b.c' } });
    expect(checkKey(fk(['a', 'b'], ['x', 'y']))).not.toBe(checkKey(fk(['b', 'a'], ['x', 'y'])));
    const uq = (cols: string[]) => stored({ check_function: 'is_unique', arguments: { columns: cols } });
    expect(checkKey(uq(['a', 'b']))).toBe(checkKey(uq(['b', 'a'])));
  });

  it('re-generating after the user edited some generated checks adds only what is missing', () => {
    const generated = generateChecks(ordersProfile(), FQN);
    const kept = generated
      .slice(0, 4)
      .map((c, i) => ({ ...c, id: `chk-${i}`, name: `mine_${i}`, criticality: 'warn' as const }));
    const added = dedupeChecks(kept, generateChecks(ordersProfile(), FQN));
    expect(added.map((c) => c.name)).toEqual(generated.slice(4).map((c) => c.name));
  });
});
