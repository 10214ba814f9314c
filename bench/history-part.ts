import { spawn } from 'node:child_process';
import * as readline from 'node:readline';
import type { Progress } from './clone-bench-env';

export interface HistoryFigure {
  shape: string;
  tables: number;
  maxHistoryLength: number;
  parentRuns: number;
  childRuns: number;
  seconds: number;
  /** Peak RSS of the worker's process (its workflows, activities and the in-process store) during the job. */
  peakRssBytes: number;
  /** Where the worker's store was: Postgres, or PGlite inside the worker's process (counted in its RSS). */
  store: string;
}

/**
 * The largest workflow history (any run of the job or a schema workflow) cloning a `tables`-table catalog as
 * 100 schemas and as one schema, over a platform whose clone is a no-op, and the worker's peak RSS meanwhile.
 * Each shape runs in a process of its own (bench/history-worker.ts), so the RSS is the worker's alone: not
 * this process's memory from the other parts.
 */
export async function historyBench(tables: number, progress: Progress): Promise<HistoryFigure[]> {
  const out: HistoryFigure[] = [];
  for (const [shape, schemas] of [
    ['100 schemas', 100],
    ['1 schema', 1],
  ] as const) {
    progress(`history: cloning ${tables} tables in ${shape} over a platform whose clone is a no-op`);
    const figure = await inChildProcess(shape, schemas, Math.ceil(tables / schemas), progress);
    out.push(figure);
    progress(
      `history, ${shape}: largest run ${figure.maxHistoryLength} events, worker peak RSS ${(figure.peakRssBytes / 1024 ** 2).toFixed(0)} MiB, ${figure.seconds.toFixed(0)} s`,
    );
  }
  return out;
}

const RESULT = 'history-result ';

function inChildProcess(shape: string, schemas: number, perSchema: number, progress: Progress): Promise<HistoryFigure> {
  // The same node with the same loader flags (tsx) that runs this bench.
  const child = spawn(process.execPath, [...process.execArgv, require.resolve('./history-worker')], {
    env: { ...process.env, LAKEWARD_BENCH_SHAPE: JSON.stringify({ shape, schemas, perSchema }) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let result: HistoryFigure | undefined;
  readline.createInterface({ input: child.stdout }).on('line', (line) => {
    if (line.startsWith(RESULT)) result = JSON.parse(line.slice(RESULT.length)) as HistoryFigure;
    else if (line.trim()) progress(line.trim());
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0 && result) resolve(result);
      else reject(new Error(`the history worker for ${shape} exited with ${code} without a result`));
    });
  });
}

export const HISTORY_RESULT_PREFIX = RESULT;
