import { batchTables } from '../../workflows/clone/signals';

describe('table batches', () => {
  const t = (name: string, sizeBytes: number | null) => ({ name, sizeBytes });
  const limits = { batchTables: 3, batchBytes: 100 };

  test('small tables share activities up to the count limit, in order', () => {
    const b = batchTables([t('a', 1), t('b', 1), t('c', 1), t('d', 1)], limits);
    expect(b.map((x) => x.map((y) => y.name))).toEqual([['a', 'b', 'c'], ['d']]);
  });

  test('a big table travels alone and closes the batch before it', () => {
    const b = batchTables([t('a', 10), t('big', 500), t('c', null), t('d', 60), t('e', 50)], limits);
    expect(b.map((x) => x.map((y) => y.name))).toEqual([['a'], ['big'], ['c', 'd'], ['e']]);
  });
});
