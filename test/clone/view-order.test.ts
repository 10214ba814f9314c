import { orderViews } from '../../activities/clone/logic/view-order';

const v = (name: string, definition: string, schema = 's') => ({ schema, name, definition });

describe('view dependency order', () => {
  test('a view over a view comes after it, whatever the listing order', () => {
    const { order, cycles } = orderViews(
      [
        v('top', 'SELECT * FROM prod.s.middle'),
        v('middle', 'SELECT * FROM s.base_v'),
        v('base_v', 'SELECT * FROM prod.s.table1'),
      ],
      'prod',
    );
    expect(order).toEqual(['s.base_v', 's.middle', 's.top']);
    expect(cycles).toEqual([]);
  });

  test('cycles are reported and excluded; independent views still ordered', () => {
    const { order, cycles } = orderViews(
      [v('a', 'SELECT * FROM b'), v('b', 'SELECT * FROM prod.s.a'), v('c', 'SELECT * FROM a'), v('d', 'SELECT 1')],
      'prod',
    );
    expect(order).toEqual(['s.d']);
    expect(cycles).toEqual([['s.a', 's.b', 's.c']]);
  });

  test('references to another catalog are not dependencies', () => {
    const { order } = orderViews([v('x', 'SELECT * FROM other.s.y'), v('y', 'SELECT 1')], 'prod');
    expect(order).toEqual(['s.x', 's.y']);
  });
});
