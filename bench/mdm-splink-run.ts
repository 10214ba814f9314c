/**
 * Running bench/mdm-splink.py for bench/mdm-vs-splink.ts: Splink (in the project's .venv) under a wall-time limit
 * with its peak RSS watched, the CSV files it reads, and the shared evaluator on its own.
 */
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

export const VENV = path.resolve(__dirname, '../.venv');
const PY = path.join(VENV, 'bin/python');
/** Splink's wall-time limit: past it the bench stops Splink and prints a bound on the ratio instead. */
const SPLINK_TIMEOUT_S = Number(process.env.LAKEWARD_BENCH_SPLINK_TIMEOUT_S ?? 1500);
/** LAKEWARD_BENCH_SPLINK_DEADLINE (an ISO time): Splink's limit also ends by then (a run that must end by a time). */
export const splinkLimitS = () => {
  const deadline = process.env.LAKEWARD_BENCH_SPLINK_DEADLINE;
  const left = deadline ? Math.floor((Date.parse(deadline) - Date.now()) / 1000) : Infinity;
  return Math.max(1, Math.min(SPLINK_TIMEOUT_S, left));
};

const csvCell = (v: unknown) => {
  if (v === null || v === undefined) return '';
  const s = String(v);
  return /[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};
export const toCsv = (columns: string[], rows: Record<string, unknown>[]) =>
  [columns.join(','), ...rows.map((r) => columns.map((c) => csvCell(r[c])).join(','))].join('\n') + '\n';

/** Splink's and the shared evaluator's answer (one JSON line of bench/mdm-splink.py). */
export interface SplinkDone {
  finished: true;
  version: string;
  seconds: number;
  scored_pairs: number;
  peak_rss_mb: number;
  splink: { pairwise_f1: number; precision: number; recall: number; b3_f1: number };
  lakeward: { pairwise_f1: number; precision: number; recall: number; b3_f1: number };
}

/** Splink stopped at the time limit: its time so far and its peak RSS (VmHWM) until then. */
interface SplinkStopped {
  finished: false;
  seconds: number;
  limit_s: number;
  peak_rss_mb: number;
  lakeward?: SplinkDone['lakeward'];
}
export type SplinkResult = SplinkDone | SplinkStopped;

/**
 * Runs bench/mdm-splink.py on `dir` (its progress lines go to stderr as they come), watching its peak RSS;
 * stops it after `limitS` seconds.
 */
export function runSplink(dir: string, limitS: number): Promise<SplinkResult> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(PY, [path.join(__dirname, 'mdm-splink.py'), dir], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    let hwm = 0;
    let timedOut = false;
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    const sample = () => {
      try {
        const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'));
        if (m) hwm = Math.max(hwm, Math.round(Number(m[1]) / 1024));
      } catch {
        // the process has just ended
      }
    };
    const watch = setInterval(sample, 500);
    const limit = setTimeout(() => {
      sample();
      timedOut = true;
      child.kill('SIGKILL');
    }, limitS * 1000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearInterval(watch);
      clearTimeout(limit);
      const seconds = (performance.now() - started) / 1000;
      if (timedOut) return resolve({ finished: false, seconds, limit_s: limitS, peak_rss_mb: hwm });
      if (code !== 0) return reject(new Error(`mdm-splink.py exited with ${code}`));
      resolve({
        finished: true,
        ...(JSON.parse(out.trim().split('\n').pop() ?? '{}') as Omit<SplinkDone, 'finished'>),
      });
    });
  });
}

/** The shared evaluator alone on `dir` (Lakeward's clusters against the truth), for a run Splink did not finish. */
export function evaluateLakeward(dir: string): SplinkDone['lakeward'] {
  const py = execFileSync(PY, [path.join(__dirname, 'mdm-splink.py'), dir, '--evaluate-only'], { encoding: 'utf8' });
  return (JSON.parse(py.trim().split('\n').pop() ?? '{}') as Pick<SplinkDone, 'lakeward'>).lakeward;
}
