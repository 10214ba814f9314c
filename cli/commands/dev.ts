import { Command, Option } from 'commander';
import { loadConfig, type ConfigFlags } from '../../config/load';

/** Loaded on use: the stack pulls in the Temporal worker, PGlite and Express, which `health` does not need. */
const runStack: typeof import('../../workers/dev-stack').runStack = async (config, opts) =>
  (await import('../../workers/dev-stack')).runStack(config, opts);

type StackFlags = ConfigFlags & { apiOnly?: boolean; workerOnly?: boolean; web?: boolean };

const port = (value: string) => value; // validated with the rest of the configuration, naming the key

function withConfigOptions(cmd: Command): Command {
  return cmd
    .option('--config <file>', 'config file (env LAKEWARD_CONFIG, default ./config/lakeward.yaml)')
    .option('--data-dir <dir>', 'data folder (env LAKEWARD_DATA_DIR, default .lakeward)')
    .option('--host <host>', 'API listen address (env LAKEWARD_HOST, default 127.0.0.1)')
    .option('--port <port>', 'API port (env LAKEWARD_PORT, default 8080)', port)
    .option('--api-key <key>', 'require this API key from clients (env LAKEWARD_API_KEY)')
    .option('--temporal-address <host:port>', 'use this Temporal cluster (env TEMPORAL_ADDRESS)')
    .option('--database-url <url>', 'Postgres URL (env DATABASE_URL; default PGlite in the data folder)')
    .addOption(new Option('--log-level <level>', 'log level (env LAKEWARD_LOG_LEVEL)'));
}

/**
 * `lakeward dev`: the whole embedded stack in one process (Temporal dev server unless TEMPORAL_ADDRESS is
 * set, worker, API). `lakeward serve`: the production roles against a Temporal cluster, optionally only one.
 */
export function registerDevCommands(program: Command): void {
  withConfigOptions(program.command('dev').description('Run Temporal (embedded), the worker and the API'))
    .option('--temporal-port <port>', 'gRPC port of the embedded Temporal dev server (default 7233)', port)
    .option('--ui-port <port>', 'Temporal Web UI port of the embedded dev server (default 8233)', port)
    .option('--web-port <port>', 'web console port (config web.port, env LAKEWARD_WEB_PORT, default 8000)', port)
    .option('--no-web', 'do not serve the web console')
    .action(async (flags: StackFlags) => {
      const { web, ...configFlags } = flags;
      process.exitCode = await runStack(loadConfig({ flags: configFlags }), { api: true, worker: true, web });
    });

  withConfigOptions(program.command('serve').description('Run the API and/or the worker against a Temporal cluster'))
    .option('--api-only', 'run only the API')
    .option('--worker-only', 'run only the worker')
    .action(async (flags: StackFlags) => {
      const config = loadConfig({ flags });
      if (!config.temporal.address) {
        throw new Error('serve needs a Temporal cluster: set TEMPORAL_ADDRESS or --temporal-address (or use `dev`)');
      }
      if (flags.apiOnly && flags.workerOnly) throw new Error('--api-only and --worker-only exclude each other');
      process.exitCode = await runStack(config, { api: !flags.workerOnly, worker: !flags.apiOnly });
    });
}
