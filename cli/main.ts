import { Command } from 'commander';
import { ConfigError } from '../config/load';
import { versionInfo } from '../config/version';
import { registerCommands } from './commands';
import { ApiError, ApiUnreachableError } from './http';

/** Exit codes: 1 the operation failed (or the stack is degraded), 2 bad configuration or usage, 3 API unreachable. */
async function main(argv: string[]): Promise<void> {
  const program = new Command('lakeward')
    .description('Clone, sync and govern Unity Catalog catalogs with durable Temporal workflows')
    .version(versionInfo().version, '-V, --cli-version', 'print the CLI version')
    .showHelpAfterError();
  registerCommands(program);
  try {
    await program.parseAsync(argv);
  } catch (err) {
    process.exitCode = report(err);
  }
}

function report(err: unknown): number {
  if (err instanceof ConfigError) {
    console.error(err.message);
    return 2;
  }
  if (err instanceof ApiUnreachableError) {
    console.error(`error: ${err.message}`);
    return 3;
  }
  if (err instanceof ApiError) {
    console.error(`error: ${err.code} (HTTP ${err.status}): ${err.message}`);
    for (const d of err.details) console.error(`  - ${d.path}: ${d.message}`);
    return 1;
  }
  console.error(`error: ${(err as Error)?.message ?? String(err)}`);
  return 1;
}

void main(process.argv);
