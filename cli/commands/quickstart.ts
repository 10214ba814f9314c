import type { Command } from 'commander';
import { loadConfig, type ConfigFlags } from '../../config/load';
import { followJob } from '../job-follow';
import { apiClient } from '../http';
import { barView, lineView } from '../progress';
import { summaryText, type JobRecord } from './job-text';

interface QuickstartFlags extends ConfigFlags {
  source: string;
  destination: string;
  cloneType: string;
  exit?: boolean;
}

/**
 * `lakeward quickstart`: the main job on the embedded defaults. Starts the stack (Temporal dev server, worker,
 * API), seeds the demo catalog into the local lakehouse if it is not there yet, clones it with live progress,
 * prints the summary and where to look next, then keeps the stack up until Ctrl-C (or stops with --exit).
 */
export function registerQuickstartCommand(program: Command): void {
  program
    .command('quickstart')
    .description('Start the embedded stack, seed the demo catalog and clone it with live progress')
    .option('--data-dir <dir>', 'data folder (env LAKEWARD_DATA_DIR, default .lakeward)')
    .option('--port <port>', 'API port (default 8080)')
    .option('--temporal-port <port>', 'embedded Temporal gRPC port (default 7233)')
    .option('--ui-port <port>', 'embedded Temporal Web UI port (default 8233)')
    .option('--source <catalog>', 'demo catalog to seed and clone', 'demo_sales')
    .option('--destination <catalog>', 'destination catalog', 'demo_sales_dev')
    .option('--clone-type <type>', 'DEEP or SHALLOW', 'DEEP')
    .option('--exit', 'stop the stack after the clone instead of keeping it up')
    .action(async (flags: QuickstartFlags) => {
      process.exitCode = await quickstart(flags);
    });
}

async function quickstart(flags: QuickstartFlags): Promise<number> {
  const { source, destination, cloneType, exit, ...configFlags } = flags;
  const config = loadConfig({ flags: configFlags });
  const { createProcessLogger } = await import('../../workers/logger');
  const { lockDataDir } = await import('../../workers/data-dir-lock');
  const { startStack } = await import('../../workers/stack');
  const { prepareTemporalTelemetry } = await import('../../workers/metrics-server');

  const unlock = lockDataDir(config.data_dir);
  // The worker's /metrics carries the Temporal SDK's series as in `lakeward dev`.
  const { telemetry } = await prepareTemporalTelemetry(config);
  const logger = createProcessLogger('warn', { telemetry });
  const stack = await startStack(config, { api: true, worker: true, logger });
  const { startConsoleBesideApi } = await import('../../workers/web-console');
  // The web console beside the API when it is built (scripts/quickstart.sh builds it); else the API runs alone.
  const web = stack.apiUrl ? await startConsoleBesideApi(config, stack.apiUrl) : {};
  if (web.problem) console.error(web.problem);
  try {
    await seedIfMissing(config.workspace.root, source);
    const api = apiClient({ url: stack.apiUrl });
    const accepted = await api.post<{ job_id: string; message: string }>('/api/clone', {
      source_catalog: source,
      destination_catalog: destination,
      clone_type: cloneType,
    });
    console.log(`\nCloning ${source} → ${destination} (${cloneType.toUpperCase()}) as job ${accepted.job_id}`);
    const view = process.stderr.isTTY ? barView() : lineView((line) => console.log(line));
    try {
      await followJob(api, undefined, accepted.job_id, view);
    } finally {
      view.stop();
    }
    const job = await api.get<JobRecord>(`/api/clone/${accepted.job_id}`);
    console.log(`\n${summaryText(job)}`);
    printNext({ ...stack, consoleUrl: web.running?.url }, config.temporal.namespace, accepted.job_id, destination);
    if (!exit) await untilSignal();
    return job.status === 'completed' && !job.tables_failed ? 0 : 1;
  } finally {
    await web.running?.close();
    await stack.stop();
    unlock();
  }
}

async function seedIfMissing(root: string, catalog: string): Promise<void> {
  const { openWorkspace } = await import('../../platform');
  const { seedDemo } = await import('../../platform/local/demo/seed');
  const ws = await openWorkspace({ kind: 'local', root });
  try {
    const exists = (await ws.listCatalogs()).some((c) => c.name === catalog);
    if (exists) {
      console.log(`Demo catalog ${catalog} already in ${root}`);
      return;
    }
  } finally {
    await ws.close();
  }
  process.stdout.write(`Seeding demo catalog ${catalog} in ${root} … `);
  const s = await seedDemo({ root, catalog, scale: 'small' });
  console.log(
    `${s.schemas.length} schemas, ${s.tables} tables, ${s.views} views, ${s.functions} functions, ${s.volumes} volume(s) in ${(s.elapsedMs / 1000).toFixed(1)} s`,
  );
}

function printNext(
  stack: { apiUrl?: string; temporalUiUrl?: string; consoleUrl?: string },
  namespace: string,
  jobId: string,
  destination: string,
): void {
  const lines = ['', 'Where to look next:'];
  if (stack.consoleUrl) lines.push(`  web console    ${stack.consoleUrl}/jobs/${jobId}`);
  lines.push(`  job record     ${stack.apiUrl}/api/clone/${jobId}`);
  lines.push(`  run log        ${stack.apiUrl}/api/audit/${jobId}/logs`);
  if (stack.temporalUiUrl)
    lines.push(`  workflow       ${stack.temporalUiUrl}/namespaces/${namespace}/workflows/${jobId}`);
  lines.push(`  more clones    bin/lakeward clone ${destination} ${destination}_copy --clone-type SHALLOW --wait`);
  console.log(lines.join('\n'));
}

function untilSignal(): Promise<void> {
  console.log('\nThe stack stays up for you to explore. Press Ctrl-C to stop.');
  return new Promise((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
}
