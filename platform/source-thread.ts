import { Worker } from 'node:worker_threads';

/**
 * A worker thread running `file`, whether this process runs from TypeScript sources (tsx, jest: the thread first
 * registers tsx's require hook) or from a compiled build (the thread runs the .js). `file` is the module's path
 * with the caller's own extension. The thread inherits no Node flags (`execArgv`).
 */
export function sourceThread(file: string, opts: { name?: string } = {}): Worker {
  const fromSource = file.endsWith('.ts');
  const entry = fromSource
    ? `require(${JSON.stringify(require.resolve('tsx/cjs'))}); require(${JSON.stringify(file)});`
    : file;
  return new Worker(entry, { eval: fromSource, execArgv: [], name: opts.name });
}
