/**
 * Where an API request's CPU goes: the load bench's stack (bench/api-load-stack.ts) in this process, each route
 * (and the bare baseline of the same size) loaded by autocannon from ANOTHER process at a fixed rate while the
 * V8 profiler samples this one. Prints the CPU milliseconds per request (busy time / requests served), the
 * top self-time frames and the time by package, and writes each .cpuprofile to LAKEWARD_PROFILE_DIR (default a
 * temporary folder). Not a ratio bench: it finds the costs bench/api-load.ts then measures.
 *
 *   LAKEWARD_BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npx tsx bench/api-load-profile.ts
 *   LAKEWARD_BENCH_LOAD_SECONDS=10 LAKEWARD_BENCH_LOAD_RPS=200 … (defaults 10 s at 200 requests/s)
 *   LAKEWARD_PROFILE_HEAP=1 …   # bytes allocated per request by function (sampling heap profiler) instead
 *   LAKEWARD_PROFILE_HEAP=survivors …   # only what is still in the heap at the end of each run:
 *                                       # in use, or promoted to the old generation and not yet collected
 *                                       # (what makes collections long), per request by function
 *   LAKEWARD_PROFILE_HEAP=promoted …   # what outlived a young collection (still in use, or promoted and
 *                                      # collected later by a full one): what young collections copy
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import * as os from 'node:os';
import * as path from 'node:path';
import { submitClone, untilFinal } from './api-load-clones';
import { startLoadStack } from './api-load-stack';

const SECONDS = Number(process.env.LAKEWARD_BENCH_LOAD_SECONDS ?? 10);
const RPS = Number(process.env.LAKEWARD_BENCH_LOAD_RPS ?? 200);
const heapMode = process.env.LAKEWARD_PROFILE_HEAP;
const survivorsOnly = heapMode === 'survivors';
const promotedOnly = heapMode === 'promoted';
const OUT = process.env.LAKEWARD_PROFILE_DIR ?? mkdtempSync(path.join(os.tmpdir(), 'lw-api-profile-'));
const log = (line: string) => console.log(`[api-profile ${new Date().toISOString().slice(11, 19)}] ${line}`);

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount: number;
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

/** autocannon in a child process (so its own CPU is not in the profile); resolves with the 2xx count. */
function cannon(url: string): Promise<number> {
  const bin = path.resolve(__dirname, '../node_modules/autocannon/autocannon.js');
  const args = [bin, '-j', '-c', '16', '-R', String(RPS), '-d', String(SECONDS), url];
  return new Promise((resolve, reject) =>
    execFile(process.execPath, args, { maxBuffer: 1 << 24 }, (err, stdout) => {
      if (err) return reject(err);
      const r = JSON.parse(stdout) as { '2xx': number; latency: { p50: number; p99: number } };
      log(`  ${url}: ${r['2xx']} answered, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms`);
      resolve(r['2xx']);
    }),
  );
}

/** Which package (or project folder, or V8 bucket) a frame belongs to. */
function owner(frame: Node['callFrame']): string {
  const { url, functionName } = frame;
  if (!url) return `(${functionName || 'native'})`;
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + 'node_modules/'.length).split('/');
    return rest[0].startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0];
  }
  if (url.startsWith('node:')) return url;
  const at = url.indexOf('/work/main/');
  return at >= 0
    ? url
        .slice(at + '/work/main/'.length)
        .split('/')
        .slice(0, 2)
        .join('/')
    : url;
}

function summarise(profile: Profile, requests: number, label: string): void {
  const self = new Map<number, number>();
  for (let i = 0; i < profile.samples.length; i++)
    self.set(profile.samples[i], (self.get(profile.samples[i]) ?? 0) + profile.timeDeltas[i] / 1000);
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const frames = new Map<string, number>();
  const owners = new Map<string, number>();
  let busy = 0;
  for (const [id, ms] of self) {
    const { callFrame } = byId.get(id)!;
    // Idle, V8's own bookkeeping and the inspector's `dispatch` (serialising the profile at Profiler.stop).
    if (['(idle)', '(program)', 'dispatch'].includes(callFrame.functionName)) continue;
    busy += ms;
    const name = `${callFrame.functionName || '(anonymous)'} ${callFrame.url.replace(/^.*\/(node_modules|main)\//, '')}:${callFrame.lineNumber + 1}`;
    frames.set(name, (frames.get(name) ?? 0) + ms);
    owners.set(owner(callFrame), (owners.get(owner(callFrame)) ?? 0) + ms);
  }
  const perReq = (ms: number) => ((1000 * ms) / Math.max(1, requests)).toFixed(1);
  console.log(`\n${label}: ${requests} requests, busy ${busy.toFixed(0)} ms = ${perReq(busy)} µs CPU per request`);
  console.log('  by package (µs per request):');
  for (const [k, ms] of [...owners].sort((a, b) => b[1] - a[1]).slice(0, 18))
    console.log(`    ${perReq(ms).padStart(7)}  ${k}`);
  console.log('  top self-time frames (µs per request):');
  for (const [k, ms] of [...frames].sort((a, b) => b[1] - a[1]).slice(0, 25))
    console.log(`    ${perReq(ms).padStart(7)}  ${k}`);
}

interface HeapNode {
  callFrame: Node['callFrame'];
  selfSize: number;
  children: HeapNode[];
}

/** Bytes allocated per request by allocating function (V8's sampling heap profiler: live and collected). */
async function heapProfiled(session: Session, url: string, label: string): Promise<void> {
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: 1024,
    includeObjectsCollectedByMajorGC: !survivorsOnly,
    includeObjectsCollectedByMinorGC: !survivorsOnly && !promotedOnly,
  });
  const requests = await cannon(url);
  const { profile } = (await session.post('HeapProfiler.stopSampling')) as unknown as {
    profile: { head: HeapNode };
  };
  const sites = new Map<string, number>();
  let total = 0;
  const walk = (n: HeapNode) => {
    const f = n.callFrame;
    const name = `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*\/(node_modules|main)\//, '')}:${f.lineNumber + 1}`;
    sites.set(name, (sites.get(name) ?? 0) + n.selfSize);
    total += n.selfSize;
    n.children.forEach(walk);
  };
  walk(profile.head);
  const perReq = (b: number) => (b / Math.max(1, requests)).toFixed(0);
  const what = survivorsOnly
    ? 'bytes per request still in the heap at the end (in use or promoted, not yet collected)'
    : promotedOnly
      ? 'bytes per request that outlived a young collection'
      : 'bytes allocated per request';
  console.log(`\n${label}: ${requests} requests, ${perReq(total)} ${what}`);
  for (const [k, b] of [...sites].sort((a, b) => b[1] - a[1]).slice(0, 25))
    console.log(`    ${perReq(b).padStart(7)}  ${k}`);
}

async function profiled(session: Session, url: string, label: string): Promise<void> {
  if (process.env.LAKEWARD_PROFILE_HEAP) return heapProfiled(session, url, label);
  await session.post('Profiler.start');
  const requests = await cannon(url);
  const { profile } = (await session.post('Profiler.stop')) as unknown as { profile: Profile };
  const file = path.join(OUT, `${label.replace(/[^a-z0-9]+/gi, '_')}.cpuprofile`);
  writeFileSync(file, JSON.stringify(profile));
  summarise(profile, requests, label);
}

async function main(): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  const stack = await startLoadStack(log);
  try {
    const job = await submitClone(stack.api, {
      source_catalog: stack.source,
      destination_catalog: `${stack.source}_profiled`,
      clone_type: 'DEEP',
    });
    log(`deep clone ${job} ended ${await untilFinal(stack.api, job, 600_000)}`);
    const session = new Session();
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 100 });
    const routes: [string, string][] = [
      ['record', `/api/clone/${job}`],
      ['jobs', '/api/clone/jobs'],
      ['health', '/api/health'],
    ];
    for (const [name, p] of routes) {
      const url = `${stack.api}${p}`;
      const bytes = Buffer.byteLength(await (await fetch(url)).text());
      stack.setBaselineBytes(bytes);
      await cannon(url); // warm-up, not profiled
      await profiled(session, stack.baseline, `baseline for ${name} (${bytes} B)`);
      await profiled(session, url, `${name} ${p}`);
    }
    session.disconnect();
    log(`profiles in ${OUT}`);
  } finally {
    await stack.close();
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
