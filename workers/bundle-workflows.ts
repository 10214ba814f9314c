import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import { WORKFLOW_INTERCEPTOR_MODULES } from './telemetry';

const ROOT = path.resolve(__dirname, '..');

/** Where `npm run build` writes the pre-built workflow bundle used by production workers. */
export function workflowBundlePath(): string {
  // Compiled code runs from dist/workers, where ROOT is dist itself.
  return path.basename(ROOT) === 'dist'
    ? path.join(ROOT, 'workflow-bundle.js')
    : path.join(ROOT, 'dist/workflow-bundle.js');
}

/** Bundles workflows/index.ts and the interceptor modules (the same code `lakeward dev` bundles at start) into one file. */
export async function writeWorkflowBundle(out = workflowBundlePath()): Promise<string> {
  const { code } = await bundleWorkflowCode({
    workflowsPath: require.resolve('../workflows'),
    workflowInterceptorModules: WORKFLOW_INTERCEPTOR_MODULES,
    logger: quietLogger,
  });
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(out, code);
  return out;
}

const noop = () => undefined;
const quietLogger = { trace: noop, debug: noop, info: noop, warn: noop, error: noop, log: noop };

if (require.main === module) {
  writeWorkflowBundle().then(
    (out) => process.stdout.write(`workflow bundle written to ${out}\n`),
    (err: unknown) => {
      process.stderr.write(`workflow bundle failed: ${(err as Error).stack ?? String(err)}\n`);
      process.exitCode = 1;
    },
  );
}
