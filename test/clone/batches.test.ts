import { batchTables } from '../../workflows/clone/signals';

describe('table batches', () => {
  const t = (name: string, sizeBytes: number | null) => ({ name, sizeBytes });
  const limits = { batchTables: 3, batchBytes: 100 };

  const names = (b: { name: string }[][]) => b.map((x) => x.map((y) => y.name));

  test('small tables share activities up to the count limit, in order, evened out', () => {
    const b = batchTables([t('a', 1), t('b', 1), t('c', 1), t('d', 1)], limits);
    expect(names(b)).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
  });

  test('the batches come in whole rounds of the parallelism, with equal shares', () => {
    const tables = Array.from({ length: 48 }, (_, i) => t(`t${i}`, 170));
    const b = batchTables(tables, { batchTables: 32, batchBytes: 1000 }, 4);
    // 8,160 bytes need 9 batches of at most 1,000; rounded up to 12 (three rounds of four), 4 tables each.
    expect(b).toHaveLength(12);
    expect(b.every((x) => x.length === 4)).toBe(true);
    expect(b.flat().map((x) => x.name)).toEqual(tables.map((x) => x.name));
    // Many small tables: the count cap, in rounds of four.
    const many = Array.from({ length: 250 }, (_, i) => t(`s${i}`, 1));
    const m = batchTables(many, { batchTables: 32, batchBytes: 1000 }, 4);
    expect(m).toHaveLength(8);
    expect(Math.max(...m.map((x) => x.length)) - Math.min(...m.map((x) => x.length))).toBeLessThanOrEqual(1);
    // Fewer tables than slots: one each.
    expect(batchTables([t('a', 1), t('b', 1)], { batchTables: 32, batchBytes: 1000 }, 4)).toHaveLength(2);
  });

  test('no batch goes over either cap', () => {
    const mixed = Array.from({ length: 200 }, (_, i) => t(`m${i}`, (i * 37) % 400));
    for (const parallel of [1, 3, 8]) {
      const b = batchTables(mixed, { batchTables: 16, batchBytes: 1000 }, parallel);
      expect(b.flat()).toEqual(mixed);
      for (const x of b) {
        expect(x.length).toBeLessThanOrEqual(16);
        if (x.length > 1) expect(x.reduce((n, y) => n + (y.sizeBytes ?? 0), 0)).toBeLessThanOrEqual(1000);
      }
    }
  });

  test('a big table travels alone and closes the batch before it', () => {
    const b = batchTables([t('a', 10), t('big', 500), t('c', null), t('d', 60), t('e', 50)], limits);
    expect(names(b)).toEqual([['a'], ['big'], ['c', 'd'], ['e']]);
  });
});
