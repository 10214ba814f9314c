import type { Config } from '../config/load';
import { lockDataDir } from './data-dir-lock';
import { createProcessLogger, logFormat } from './logger';
import { prepareTemporalTelemetry } from './metrics-server';
import { startStack, type Stack } from './stack';
import { startConsoleBesideApi } from './web-console';

export interface RunOptions {
  api: boolean;
  worker: boolean;
  /** Also serve the web console beside the API (`lakeward dev`; not without a built console). */
  web?: boolean;
}

/**
 * Runs the stack in the foreground until SIGINT or SIGTERM, then stops everything (API, worker, store,
 * embedded Temporal) and resolves with the exit code. Signal handlers are installed before anything
 * starts: a Ctrl-C during start-up stops the stack as soon as it is up, and a second signal kills the
 * Temporal process group at once, so no `temporal` process outlives Lakeward.
 */
export async function runStack(config: Config, opts: RunOptions): Promise<number> {
  // A worker process exports the Temporal SDK's metrics (merged into its /metrics); Runtime takes them once.
  const sdkMetrics = opts.worker ? await prepareTemporalTelemetry(config) : {};
  const logger = createProcessLogger(config.log_level, { format: logFormat(config), telemetry: sdkMetrics.telemetry });
  if (sdkMetrics.warning) logger.warn(sdkMetrics.warning);
  const usesDataDir = !config.temporal.address || !config.database_url;
  const unlock = usesDataDir ? lockDataDir(config.data_dir) : () => undefined;
  let temporalPid: number | undefined;
  let signalled: (code: number) => void = () => undefined;
  const stopRequested = new Promise<number>((resolve) => (signalled = resolve));
  let signals = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    signals += 1;
    if (signals > 1) {
      console.error(`\n${signal} again: exiting now`);
      if (temporalPid) killGroup(temporalPid);
      unlock();
      process.exit(130);
    }
    console.error(`\n${signal} received: stopping Lakeward…`);
    signalled(0);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    const stack = await startStack(config, { ...opts, logger, onTemporalPid: (pid) => (temporalPid = pid) });
    const web = opts.web && stack.apiUrl ? await startConsoleBesideApi(config, stack.apiUrl) : {};
    if (web.problem) console.error(web.problem);
    if (signals === 0) printBanner(config, stack, web.running?.url);
    const workerEnded = stack.workerDone.then(
      () => 1,
      (err: unknown) => {
        logger.error({ err }, 'worker stopped');
        return 1;
      },
    );
    const code = await Promise.race([stopRequested, workerEnded]);
    await web.running?.close();
    await stack.stop();
    console.error('Lakeward stopped.');
    return code;
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    unlock();
  }
}

function printBanner(config: Config, stack: Stack, consoleUrl?: string): void {
  const lines = ['Lakeward is running', `  data folder   ${config.data_dir}`];
  if (consoleUrl) lines.push(`  console       ${consoleUrl}`);
  if (stack.apiUrl) lines.push(`  API           ${stack.apiUrl}/api/health`);
  lines.push(`  Temporal      ${stack.temporalAddress} (namespace ${config.temporal.namespace})`);
  if (stack.temporalUiUrl) lines.push(`  Temporal UI   ${stack.temporalUiUrl}`);
  if (stack.apiUrl) lines.push(`  API metrics   ${stack.apiMetricsUrl ?? `${stack.apiUrl}/metrics`}`);
  if (stack.workerMetricsUrl) lines.push(`  worker metrics ${stack.workerMetricsUrl}`);
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
