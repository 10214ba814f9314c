import { spawnSync } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

/**
 * The test oracles (deltalake, sqlglot, pyarrow in .venv) are installed by `scripts/setup.sh --oracles`:
 * instant when present, a pip install otherwise (a quick start skips them to stay fast). When they cannot be
 * installed, the run stops here with setup's message naming what to install, not two files later with an import
 * error.
 */
export function ensurePythonOracles(): void {
  const r = spawnSync('bash', [path.join(ROOT, 'scripts/setup.sh'), '--oracles'], { cwd: ROOT, encoding: 'utf8' });
  if (r.status === 0) {
    if (r.stdout.includes('installing')) process.stderr.write(r.stdout); // say so when the install took a while
    return;
  }
  const output = `${r.stdout ?? ''}${r.stderr ?? ''}`.trim().split('\n').slice(-15).join('\n');
  throw new Error(
    `The Python test oracles (deltalake, sqlglot, pyarrow in .venv) are missing and could not be installed ` +
      `(scripts/setup.sh --oracles exited ${r.status ?? r.signal}):\n${output || r.error?.message}`,
  );
}
