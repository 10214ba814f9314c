/**
 * Delta engine benchmark: deep-clone throughput against `cp -r` of the same files (goal ≥ 0.9×), shallow
 * clone of a 1 MB versus a ~1 GB table (goal within 2× of each other), and opening a 1,000-version table
 * with and without checkpoints. Size: LAKEWARD_BENCH_DELTA_BYTES (default 1.1 GB), in os.tmpdir(), removed after.
 *
 *   npx tsx bench/delta-clone.ts
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DeltaTable } from '../platform/local/delta';

const FILES = 8;
const COLUMNS = 8;

export interface DeltaBenchResult {
  tableBytes: number;
  files: number;
  cpSeconds: number;
  deepCloneSeconds: number;
  /** Deep-clone bytes/s ÷ cp bytes/s (goal ≥ 0.9). */
  deepCloneVsCp: number;
  shallowSmallSeconds: number;
  shallowLargeSeconds: number;
  /** Shallow clone time of the large table ÷ the small one (goal ≤ 2). */
  shallowLargeVsSmall: number;
  open1000WithCheckpointSeconds: number;
  open1000ReplayOnlySeconds: number;
}

async function timed(fn: () => Promise<unknown> | unknown): Promise<number> {
  const start = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - start) / 1e9;
}

async function best(runs: number, fn: (i: number) => Promise<unknown> | unknown): Promise<number> {
  let min = Infinity;
  for (let i = 0; i < runs; i++) min = Math.min(min, await timed(() => fn(i)));
  return min;
}

/** Random doubles do not compress, so the files really are ~`bytes` on disk. */
async function makeTable(dir: string, bytes: number, files: number): Promise<DeltaTable> {
  const schema = Array.from({ length: COLUMNS }, (_, i) => ({ name: `c${i}`, type: 'double', nullable: true }));
  const t = await DeltaTable.create(dir, { schema });
  const rowsPerFile = Math.max(1, Math.floor(bytes / files / (COLUMNS * 8)));
  const cols = schema.map((f) => `random() AS ${f.name}`).join(', ');
  for (let i = 0; i < files; i++) await t.append(`SELECT ${cols} FROM range(${rowsPerFile})`);
  return t;
}

async function makeManyVersions(dir: string, versions: number): Promise<DeltaTable> {
  const t = await DeltaTable.create(dir, { schema: [{ name: 'id', type: 'bigint', nullable: true }] });
  for (let v = 1; v < versions; v++) {
    if (v % 10 === 1) await t.append(`SELECT ${v}::BIGINT`);
    else await t.updateMetadata({ setProperties: { 'bench.version': String(v) } });
  }
  return t;
}

function dropPageCache(): void {
  // Best effort: only works as root; otherwise both copies read from the same warm cache, which is fair.
  try {
    execFileSync('sh', ['-c', 'sync; echo 1 > /proc/sys/vm/drop_caches'], { stdio: 'ignore' });
  } catch {
    /* not root */
  }
}

export async function run(): Promise<DeltaBenchResult> {
  const bytes = Number(process.env.LAKEWARD_BENCH_DELTA_BYTES ?? 1.1 * 1024 ** 3);
  const root = mkdtempSync(path.join(os.tmpdir(), 'lakeward-delta-bench-'));
  try {
    const big = await makeTable(path.join(root, 'big'), bytes, FILES);
    const snap = await big.snapshot();
    const rounds = 2;
    const cpTimes: number[] = [];
    const cloneTimes: number[] = [];
    for (let i = 0; i < rounds; i++) {
      const cpDst = path.join(root, `cp-${i}`);
      const cloneDst = path.join(root, `deep-${i}`);
      dropPageCache();
      cpTimes.push(await timed(() => execFileSync('cp', ['-r', big.dir, cpDst])));
      dropPageCache();
      cloneTimes.push(await timed(() => big.cloneTo(cloneDst, { mode: 'DEEP' })));
      rmSync(cpDst, { recursive: true, force: true });
      rmSync(cloneDst, { recursive: true, force: true });
    }
    const cpSeconds = Math.min(...cpTimes);
    const deepCloneSeconds = Math.min(...cloneTimes);

    const small = await makeTable(path.join(root, 'small'), 1024 ** 2, 2);
    const shallowSmallSeconds = await best(5, (i) => small.cloneTo(path.join(root, `ss-${i}`), { mode: 'SHALLOW' }));
    const shallowLargeSeconds = await best(5, (i) => big.cloneTo(path.join(root, `sl-${i}`), { mode: 'SHALLOW' }));

    const many = await makeManyVersions(path.join(root, 'many'), 1000);
    const replayOnly = path.join(root, 'many-replay');
    cpSync(many.dir, replayOnly, { recursive: true });
    for (const n of readdirSync(path.join(replayOnly, '_delta_log'))) {
      if (n.includes('checkpoint')) rmSync(path.join(replayOnly, '_delta_log', n));
    }
    const openWith = await best(5, async () => (await DeltaTable.open(many.dir)).snapshot());
    const openWithout = await best(5, async () => (await DeltaTable.open(replayOnly)).snapshot());

    return {
      tableBytes: snap.sizeInBytes,
      files: snap.numFiles,
      cpSeconds,
      deepCloneSeconds,
      deepCloneVsCp: cpSeconds / deepCloneSeconds,
      shallowSmallSeconds,
      shallowLargeSeconds,
      shallowLargeVsSmall: shallowLargeSeconds / shallowSmallSeconds,
      open1000WithCheckpointSeconds: openWith,
      open1000ReplayOnlySeconds: openWithout,
    };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

export function report(r: DeltaBenchResult): string {
  const mb = (b: number) => (b / 1024 ** 2).toFixed(0);
  const ms = (s: number) => (s * 1000).toFixed(1);
  return [
    `table: ${mb(r.tableBytes)} MB in ${r.files} files`,
    `deep clone: ${ms(r.deepCloneSeconds)} ms (${mb(r.tableBytes / r.deepCloneSeconds)} MB/s); cp -r: ${ms(r.cpSeconds)} ms (${mb(r.tableBytes / r.cpSeconds)} MB/s)`,
    `deep clone throughput / cp throughput: ${r.deepCloneVsCp.toFixed(2)} (goal >= 0.9)`,
    `shallow clone 1 MB: ${ms(r.shallowSmallSeconds)} ms; ${mb(r.tableBytes)} MB: ${ms(r.shallowLargeSeconds)} ms; ratio ${r.shallowLargeVsSmall.toFixed(2)} (goal <= 2)`,
    `open 1000-version table: ${ms(r.open1000WithCheckpointSeconds)} ms with checkpoints, ${ms(r.open1000ReplayOnlySeconds)} ms replaying all JSON commits`,
  ].join('\n');
}

if (require.main === module) {
  run()
    .then((r) => process.stdout.write(report(r) + '\n'))
    .catch((err) => {
      process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
      process.exit(1);
    });
}
