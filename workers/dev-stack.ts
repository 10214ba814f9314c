import type { Config } from '../config/load';
import { lockDataDir } from './data-dir-lock';
import { createProcessLogger } from './logger';
import { startStack } from './stack';

export interface RunOptions {
  api: boolean;
  worker: boolean;
}

/**
 * Runs the stack in the foreground until SIGINT or SIGTERM, then stops everything (API, worker, store,
 * embedded Temporal) and resolves with the exit code. A second signal skips the graceful part.
 */
export async function runStack(config: Config, opts: RunOptions): Promise<number> {
  const logger = createProcessLogger(config.log_level);
  const usesDataDir = !config.temporal.address || !config.database_url;
  const unlock = usesDataDir ? lockDataDir(config.data_dir) : () => undefined;
  let stopping: Promise<void> | undefined;
  try {
    const stack = await startStack(config, { ...opts, logger });
    printBanner(config, stack);
    const outcome = await new Promise<number>((resolve) => {
      const onSignal = (signal: NodeJS.Signals) => {
        if (stopping) {
          console.error(`\n${signal} again: exiting now`);
          if (stack.temporalPid) killGroup(stack.temporalPid);
          process.exit(130);
        }
        console.error(`\n${signal} received: stopping Lakeward…`);
        resolve(0);
      };
      process.on('SIGINT', onSignal);
      process.on('SIGTERM', onSignal);
      stack.workerDone.then(
        () => (stopping ? undefined : resolve(1)),
        (err: unknown) => {
          logger.error({ err }, 'worker stopped');
          resolve(1);
        },
      );
    });
    stopping = stack.stop();
    await stopping;
    console.error('Lakeward stopped.');
    return outcome;
  } finally {
    unlock();
  }
}

function printBanner(config: Config, stack: Awaited<ReturnType<typeof startStack>>): void {
  const lines = ['Lakeward is running', `  data folder   ${config.data_dir}`];
  if (stack.apiUrl) lines.push(`  API           ${stack.apiUrl}/api/health`);
  lines.push(`  Temporal      ${stack.temporalAddress} (namespace ${config.temporal.namespace})`);
  if (stack.temporalUiUrl) lines.push(`  Temporal UI   ${stack.temporalUiUrl}`);
  lines.push(`  store         ${config.database_url ? 'Postgres (DATABASE_URL)' : 'PGlite in the data folder'}`);
  lines.push('Press Ctrl-C to stop.');
  console.error(lines.join('\n'));
}

function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
}
