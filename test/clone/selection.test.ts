import { applyCloneDefaults } from '../../schemas/clone';
import {
  chooseSchemas,
  nameSelected,
  orderBySize,
  selectionFor,
  whereClauseFor,
} from '../../activities/clone/selection';

const opts = (extra: Record<string, unknown> = {}) =>
  applyCloneDefaults({ source_catalog: 'prod', destination_catalog: 'dev', ...extra } as never);

describe('clone selection', () => {
  test('information_schema and default are excluded unless the caller replaces exclude_schemas', () => {
    expect(chooseSchemas(['default', 'information_schema', 'sales', 'hr'], selectionFor(opts())).schemas).toEqual([
      'hr',
      'sales',
    ]);
    expect(chooseSchemas(['default', 'sales'], selectionFor(opts({ exclude_schemas: [] }))).schemas).toEqual([
      'default',
      'sales',
    ]);
  });

  test('include_schemas keeps only the named schemas and reports missing ones', () => {
    const choice = chooseSchemas(['sales', 'hr'], selectionFor(opts({ include_schemas: ['sales', 'nope'] })));
    expect(choice).toEqual({ schemas: ['sales'], missing: ['nope'] });
  });

  test('include and exclude table regexes', () => {
    const sel = selectionFor(opts({ include_tables_regex: '^fact_', exclude_tables_regex: '_tmp$' }));
    expect(['fact_a', 'fact_b_tmp', 'dim_c'].filter((n) => nameSelected(n, sel))).toEqual(['fact_a']);
  });

  test('include_objects becomes include_schemas plus an anchored name regex', () => {
    const sel = selectionFor(
      opts({
        include_objects: [
          { schema: 'sales', name: 'orders', type: 'table' },
          { schema: 'hr', name: 'e.x', type: 'view' },
        ],
      }),
    );
    expect(sel.includeSchemas).toEqual(['sales', 'hr']);
    expect(['orders', 'orders_2023', 'e.x', 'eax'].filter((n) => nameSelected(n, sel))).toEqual(['orders', 'e.x']);
  });

  test('where_clauses: schema.table, then table, then *', () => {
    const clauses = { 'sales.orders': 'a = 1', orders: 'a = 2', '*': 'a = 3' };
    expect(whereClauseFor('sales', 'orders', clauses)).toBe('a = 1');
    expect(whereClauseFor('hr', 'orders', clauses)).toBe('a = 2');
    expect(whereClauseFor('hr', 'x', clauses)).toBe('a = 3');
  });

  test('order_by_size asc and desc, unknown sizes as 0', () => {
    const t = [
      { name: 'a', sizeBytes: 5 },
      { name: 'b', sizeBytes: null },
      { name: 'c', sizeBytes: 9 },
    ];
    expect(orderBySize(t, 'desc').map((x) => x.name)).toEqual(['c', 'a', 'b']);
    expect(orderBySize(t, 'asc').map((x) => x.name)).toEqual(['b', 'a', 'c']);
  });
});
