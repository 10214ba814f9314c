import { execFile, execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { openWorkspace } from '../platform';
import { cpuMeter, median, pool, timed, type BenchEnv, type Progress } from './clone-bench-env';
import { PARALLEL_TABLES } from './shallow-part';

const execFileAsync = promisify(execFile);

/**
 * Deep clone of `tableCount` tables of `rows` random rows (about 34 bytes a row on disk) through the workflows,
 * against `cp -r` of the same table folders, PARALLEL_TABLES at once; paired rounds, alternating which goes first.
 */
export async function deepBench(
  b: BenchEnv,
  rows: number,
  tableCount: number,
  rounds: number,
  progress: Progress,
  label = 'deep',
) {
  const root = b.tmp('lw-bench-deep-');
  const ws = await openWorkspace({ kind: 'local', root });
  await ws.createCatalog({ name: 'bench' });
  await ws.createSchema({ catalog: 'bench', name: 'big' });
  const names = Array.from({ length: tableCount }, (_, i) => `t${i}`);
  for (const [i, name] of names.entries()) {
    if (i % 8 === 0) progress(`${label}: creating source table ${i + 1} of ${tableCount} (${rows} rows each)`);
    // Random doubles do not compress: the files really are this big on disk.
    await ws.createTableAs({
      ref: { catalog: 'bench', schema: 'big', name },
      query: `SELECT range AS id, rand() AS c0, rand() AS c1, rand() AS c2, rand() AS c3 FROM range(${rows})`,
    });
  }
  const dirs = await Promise.all(
    names.map(async (name) => (await ws.tableDetail({ catalog: 'bench', schema: 'big', name })).location!),
  );
  let bytes = 0;
  const cp: number[] = [];
  const engine: number[] = [];
  const ratios: number[] = [];
  const durableRatios: number[] = [];
  // Each side is timed twice: until its last byte is in the page cache, and until `sync` has written it
  // to disk ("durable"). On this size of machine the first is a race for memory bandwidth and CPU, which
  // the engine's own work (Temporal, the store, the metastore) competes for; the second is what a copy
  // costs once the data has to reach a disk, as it does in any real deep clone.
  // Each side's copy also reports the machine's CPU seconds (busy, iowait) while it ran: from the page cache a copy
  // is CPU work, so the engine's CPU beyond cp's is its overhead, and iowait shows writeback getting in the way.
  type Side = { copy: number; durable: number; busy: number; iowait: number };
  const cpOnce = async (): Promise<Side> => {
    // Each timed copy starts with no dirty pages left by the previous one (writeback would slow it down).
    execFileSync('sync');
    const cpRoot = b.tmp('lw-bench-cp-');
    const cpu = cpuMeter();
    const copy = await timed(() =>
      // Asynchronous, so PARALLEL_TABLES cp processes really run at once (the engine's parallelism).
      pool(dirs, PARALLEL_TABLES, (d) => execFileAsync('cp', ['-r', d, path.join(cpRoot, path.basename(d))])),
    );
    const { busy, iowait } = cpu();
    const durable = copy + (await timed(() => execFileSync('sync')));
    rmSync(cpRoot, { recursive: true, force: true });
    return { copy, durable, busy, iowait };
  };
  const engineOnce = async (round: number): Promise<Side> => {
    execFileSync('sync');
    const destination = `bench_copy_${round}`;
    const run = await b.clone(root, {
      destination_catalog: destination,
      clone_type: 'DEEP',
      max_workers: 1,
      parallel_tables: PARALLEL_TABLES,
    });
    const durable = run.seconds + (await timed(() => execFileSync('sync')));
    bytes = run.summary.bytes_copied;
    // Each round writes fresh files, as cp does: the copies of earlier rounds leave the disk.
    await ws.dropCatalog(destination, { cascade: true });
    return { copy: run.seconds, durable, ...run.cpu };
  };
  // One untimed copy first: the first copy after the tables were written ran up to five times slower than the
  // next ones (kernel time: the memory the writes used being reclaimed), and only the side that copied first in
  // round 1 paid for it.
  progress(`${label}: one untimed cp -r of the source tables first`);
  await cpOnce();
  for (let round = 0; round < rounds; round++) {
    // Alternate which side goes first, so a machine slowing down (or speeding up) during the run
    // does not always favour the same side.
    let c: Side;
    let e: Side;
    if (round % 2 === 0) {
      c = await cpOnce();
      e = await engineOnce(round);
    } else {
      e = await engineOnce(round);
      c = await cpOnce();
    }
    progress(
      `${label} round ${round + 1} of ${rounds}: engine ${e.copy.toFixed(2)} s (${e.durable.toFixed(2)} s on disk), cp ${c.copy.toFixed(2)} s (${c.durable.toFixed(2)} s), ratio ${(c.copy / e.copy).toFixed(2)}; machine CPU s busy/iowait: engine ${cpu(e)}, cp ${cpu(c)}`,
    );
    cp.push(bytes / c.copy);
    engine.push(bytes / e.copy);
    ratios.push(c.copy / e.copy);
    durableRatios.push(c.durable / e.durable);
  }
  return {
    deepBytes: bytes,
    engineBytesPerSecond: median(engine),
    cpBytesPerSecond: median(cp),
    deepVsCp: median(ratios),
    deepRatios: ratios,
    deepDurable: median(durableRatios),
    deepDurableRatios: durableRatios,
    deepRounds: engine.map((e, i) => ({ engine: e, cp: cp[i] })),
  };
}

const cpu = (s: { busy: number; iowait: number }) => `${s.busy.toFixed(1)}/${s.iowait.toFixed(1)}`;
