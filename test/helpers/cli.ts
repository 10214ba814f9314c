import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

const TSX = path.resolve(__dirname, '../../node_modules/.bin/tsx');
const MAIN = path.resolve(__dirname, '../../cli/main.ts');

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the real `lakeward` command (cli/main.ts through the project's tsx) in its own process and answers its exit
 * code and output, whatever the code: tests assert on failures as much as on successes.
 */
export async function runCli(args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<CliRun> {
  try {
    const out = await promisify(execFile)(TSX, [MAIN, ...args], {
      cwd: opts.cwd,
      env: opts.env ? { ...process.env, ...opts.env } : undefined,
      encoding: 'utf8',
    });
    return { code: 0, stdout: out.stdout, stderr: out.stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** The standard output of a `lakeward` call that must succeed; a failure throws with its exit code and stderr. */
export async function cliOut(args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<string> {
  const r = await runCli(args, opts);
  if (r.code !== 0) throw new Error(`lakeward ${args.join(' ')} exited ${r.code}: ${r.stderr || r.stdout}`);
  return r.stdout;
}
