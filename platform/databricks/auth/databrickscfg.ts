import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { InvalidInputError, NotFoundError } from '../../errors';

/** One section of `~/.databrickscfg` (INI). Keys as the Databricks CLI writes them. */
export type ConfigProfile = Record<string, string>;

/** Parses the INI text: `[name]` sections, `key = value` lines, `#`/`;` comments. */
export function parseDatabricksCfg(text: string): Map<string, ConfigProfile> {
  const profiles = new Map<string, ConfigProfile>();
  let current: ConfigProfile | undefined;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const section = /^\[(.+)\]$/.exec(line);
    if (section) {
      current = {};
      profiles.set(section[1].trim(), current);
      continue;
    }
    const eq = line.indexOf('=');
    if (eq > 0 && current) current[line.slice(0, eq).trim().toLowerCase()] = line.slice(eq + 1).trim();
  }
  return profiles;
}

export function defaultConfigFile(): string {
  return process.env.DATABRICKS_CONFIG_FILE || join(homedir(), '.databrickscfg');
}

/** Reads one profile (DEFAULT when none named). Names only, never values, appear in errors. */
export async function readProfile(profile = 'DEFAULT', file = defaultConfigFile()): Promise<ConfigProfile> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    throw new NotFoundError(`Databricks config file ${file} not found`);
  }
  const profiles = parseDatabricksCfg(text);
  const found = profiles.get(profile);
  if (!found) {
    throw new NotFoundError(
      `profile ${JSON.stringify(profile)} not in ${file} (has: ${[...profiles.keys()].join(', ') || 'none'})`,
    );
  }
  if (!found.host) throw new InvalidInputError(`profile ${JSON.stringify(profile)} in ${file} has no host`);
  return found;
}

/** Profile names with their hosts, for a profile picker. */
export async function listProfiles(file = defaultConfigFile()): Promise<{ name: string; host: string | null }[]> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return [...parseDatabricksCfg(text)].map(([name, p]) => ({ name, host: p.host ?? null }));
}
