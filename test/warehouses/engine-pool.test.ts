import { EnginePool } from '../../platform/local/warehouse-pool';
import { withDuck } from '../../platform/local/duck';
import { applyEdit } from '../../activities/warehouses/logic/spec';
import { engineSettings } from '../../activities/warehouses/logic/sizes';

test('with 2 clusters a third query waits until one is released, then runs', async () => {
  const pool = new EnginePool('wh-two', { clusters: 2, threads: 1, memoryLimitMb: 256 });
  const gates: (() => void)[] = [];
  const hold = () =>
    pool.run(async () => {
      await withDuck((c) => c.run('SELECT 1'));
      await new Promise<void>((r) => gates.push(r));
    });
  const first = hold();
  const second = hold();
  let thirdRan = false;
  const third = pool.run(async () => {
    thirdRan = true;
    return withDuck(async (c) => (await c.runAndReadAll('SELECT 42 AS x')).getRowObjects()[0].x);
  });
  while (gates.length < 2) await new Promise((r) => setImmediate(r));
  expect(pool.running).toBe(2);
  expect(pool.queued).toBe(1);
  expect(thirdRan).toBe(false);
  gates[0]();
  expect(await third).toBe(42);
  gates[1]();
  await Promise.all([first, second]);
  expect(pool.running).toBe(0);
  pool.close();
});

test('sizes set the engine of a cluster, capped by the machine', () => {
  expect(engineSettings('4X-Large', { cpus: 2, memoryBytes: 4 * 2 ** 30 })).toEqual({
    threads: 2,
    memoryLimitMb: 2048,
  });
  expect(engineSettings('2X-Small', { cpus: 8, memoryBytes: 64 * 2 ** 30 })).toEqual({
    threads: 1,
    memoryLimitMb: 512,
  });
});

test('an edit is checked after it is merged with the warehouse it changes', () => {
  const { spec } = applyEdit(null, { name: 'a', cluster_size: 'Small', max_num_clusters: 4 });
  expect(spec).toMatchObject({ autoStopMins: 120, minNumClusters: 1, maxNumClusters: 4 });
  expect(applyEdit(spec, { min_num_clusters: 5 }).problems).toEqual([
    { path: 'body.max_num_clusters', message: 'must be at least min_num_clusters' },
  ]);
  expect(applyEdit(spec, { auto_stop_mins: 0 }).problems).toEqual([]);
  expect(applyEdit(spec, { max_num_clusters: 31 }).problems.map((p) => p.path)).toEqual(['body.max_num_clusters']);
});
