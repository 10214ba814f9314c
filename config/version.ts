import path from 'node:path';
import { readFileSync } from 'node:fs';

type VersionInfo = { version: string; node: string; temporal_sdk: string };
let cached: VersionInfo | undefined;

/**
 * Versions reported by `lakeward version` and GET /api/health. Read from the package files once per process (a
 * process runs one version): the health route is polled hundreds of times a second under load.
 */
export function versionInfo(): VersionInfo {
  cached ??= {
    version: packageVersion(path.resolve(__dirname, '..')),
    node: process.version,
    temporal_sdk: sdkVersion(),
  };
  return { ...cached };
}

function packageVersion(dir: string): string {
  // From compiled code (dist/config) the package file is one level further up.
  for (const candidate of [dir, path.resolve(dir, '..')]) {
    try {
      const pkg = JSON.parse(readFileSync(path.join(candidate, 'package.json'), 'utf8')) as {
        name?: string;
        version?: string;
      };
      if (pkg.name === 'lakeward' && pkg.version) return pkg.version;
    } catch {
      // try the next candidate
    }
  }
  return 'unknown';
}

function sdkVersion(): string {
  try {
    const main = require.resolve('@temporalio/client');
    const pkgFile = path.join(main.slice(0, main.lastIndexOf(`${path.sep}lib${path.sep}`)), 'package.json');
    return (JSON.parse(readFileSync(pkgFile, 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}
