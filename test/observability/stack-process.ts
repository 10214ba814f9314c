import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { eventually } from '../helpers/eventually';

const ROOT = path.resolve(__dirname, '../..');

export interface StackProcess {
  apiUrl: string;
  /** Every stdout line the process wrote so far (its pino log), parsed; lines that are not JSON are skipped. */
  lines(): Record<string, unknown>[];
  /** SIGTERM, then waits for the exit (the stack flushes its spans on the way out). */
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const port = (srv.address() as { port: number }).port;
  await new Promise<void>((resolve) => srv.close(() => resolve()));
  return port;
}

/**
 * `lakeward serve` (API + worker) as its own process against the test Temporal server, exactly as production
 * runs it: its own process logger, Runtime logger, tracing and workflow bundle. Resolves once /api/health answers.
 */
export async function startStackProcess(env: Record<string, string>): Promise<StackProcess> {
  const port = await freePort();
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  delete childEnv.DATABASE_URL; // PGlite in the data folder: this stack's store is its own
  const child: ChildProcess = spawn(path.join(ROOT, 'bin/lakeward'), ['serve'], {
    cwd: ROOT,
    env: {
      ...childEnv,
      TEMPORAL_ADDRESS: process.env.TEMPORAL_TEST_ADDRESS,
      LAKEWARD_PORT: String(port),
      LAKEWARD_LOG_FORMAT: 'json',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-4000)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const apiUrl = `http://127.0.0.1:${port}`;
  const up = eventually(async () => (await fetch(`${apiUrl}/api/health`)).ok, {
    what: 'lakeward serve to answer /api/health',
    timeoutMs: 90_000,
    intervalMs: 250,
  });
  const failed = exited.then(() => {
    throw new Error(`lakeward serve exited (${child.exitCode}) before it answered: ${stderr}`);
  });
  await Promise.race([up, failed]);
  failed.catch(() => undefined);
  return {
    apiUrl,
    lines: () =>
      stdout.split('\n').flatMap((l) => {
        try {
          return [JSON.parse(l) as Record<string, unknown>];
        } catch {
          return [];
        }
      }),
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
