import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { INSTALL_COMMANDS } from '../../activities/generators/logic/plan';

const load = createRequire(__filename);
const NPM_ENTRY: Record<string, string> = { nodemailer: 'nodemailer/lib/mail-composer' };

/** Libraries hidden on purpose (`LAKEWARD_GENERATORS_HIDE=ffmpeg,pdfkit`): treated as not installed. */
export function hiddenLibraries(env: NodeJS.ProcessEnv = process.env): Set<string> {
  return new Set(
    (env.LAKEWARD_GENERATORS_HIDE ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  );
}

const found = new Map<string, boolean>();

/** Whether an optional library can be used here: an npm package that resolves, or the ffmpeg binary on PATH. */
export function libraryAvailable(name: string, env: NodeJS.ProcessEnv = process.env): boolean {
  if (hiddenLibraries(env).has(name)) return false;
  if (!found.has(name)) {
    let ok: boolean;
    if (name === 'ffmpeg') ok = spawnSync('ffmpeg', ['-version'], { stdio: 'ignore', timeout: 10_000 }).status === 0;
    else
      try {
        load.resolve(NPM_ENTRY[name] ?? name);
        ok = true;
      } catch {
        ok = false;
      }
    found.set(name, ok);
  }
  return found.get(name)!;
}

export function installCommand(name: string): string {
  return INSTALL_COMMANDS[name] ?? `npm install ${name}`;
}
