import { describe, expect, it } from 'vitest';
import { moveFocus, parentHref, treeRows, typeAhead } from './treeRows';

const tables = Array.from({ length: 10_000 }, (_, i) => ({ name: `t${String(i).padStart(5, '0')}`, type: 'TABLE' }));
const input = {
  catalogs: [{ name: 'bench' }, { name: 'demo_sales' }],
  schemas: [{ name: 'big' }, { name: 'wide' }],
  tables,
  catalog: 'bench',
  schema: 'big',
  filter: '',
};

describe('catalog tree rows', () => {
  it('lists the opened catalog and schema with their children, each with its tree position', () => {
    const rows = treeRows(input);
    expect(rows).toHaveLength(2 + 2 + 10_000);
    expect(rows[0]).toMatchObject({ name: 'bench', level: 1, expanded: true, posInSet: 1, setSize: 2 });
    expect(rows[1]).toMatchObject({
      name: 'big',
      level: 2,
      expanded: true,
      current: true,
      href: '/catalogs/bench/big',
    });
    expect(rows[2]).toMatchObject({ name: 't00000', level: 3, posInSet: 1, setSize: 10_000, kind: 'table' });
    expect(rows[10_002]).toMatchObject({ name: 'wide', level: 2, expanded: false, posInSet: 2 });
    expect(rows[10_003]).toMatchObject({ name: 'demo_sales', level: 1, expanded: false });
  });

  it('filters names but keeps the opened path and the URL’s table', () => {
    const rows = treeRows({ ...input, filter: 'T0999', table: 't00001' });
    expect(rows.map((r) => r.name)).toEqual([
      'bench',
      'big',
      't00001',
      't09990',
      't09991',
      't09992',
      't09993',
      't09994',
      't09995',
      't09996',
      't09997',
      't09998',
      't09999',
    ]);
    expect(rows.find((r) => r.current)?.href).toBe('/catalogs/bench/big/t00001');
  });

  it('moves focus with the ARIA tree keys and type-ahead', () => {
    const rows = treeRows(input);
    expect(moveFocus(rows, 0, 'ArrowUp')).toBe(0);
    expect(moveFocus(rows, 0, 'End')).toBe(rows.length - 1);
    expect(moveFocus(rows, 500, 'ArrowLeft')).toBe(1); // a table → its schema
    expect(moveFocus(rows, 1, 'ArrowRight')).toBe(2); // an open schema → its first table
    expect(moveFocus(rows, 10_002, 'ArrowRight')).toBeUndefined(); // closed: the caller opens it
    expect(rows[typeAhead(rows, 0, 'wi')!].name).toBe('wide');
    expect(rows[typeAhead(rows, 10_003, 'b')!].name).toBe('bench'); // wraps around
    expect(typeAhead(rows, 0, 'zz')).toBeUndefined();
    expect(parentHref('/catalogs/bench/big')).toBe('/catalogs/bench');
  });
});
