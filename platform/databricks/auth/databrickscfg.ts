import { readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import ini from 'ini';
import { InvalidInputError, NotFoundError } from '../../errors';

/** One section of `~/.databrickscfg` (INI). Keys as the Databricks CLI writes them. */
export type ConfigProfile = Record<string, string>;

/**
 * Parses the INI text with npm's `ini` parser. `ini` would split `[a.b]` into nested sections, but a profile name
 * may hold dots (the Databricks CLI writes `[my.workspace]`), so section dots are escaped first and every
 * section stays one profile. Keys are lower-cased; values stay text (`ini` would turn `true` into a boolean).
 */
export function parseDatabricksCfg(text: string): Map<string, ConfigProfile> {
  const escaped = text.replace(/^(\s*)\[([^\]\r\n]+)\](\s*)$/gm, (_m, a: string, name: string, b: string) => {
    return `${a}[${name.trim().replace(/\\?\./g, '\\.')}]${b}`;
  });
  const parsed = ini.parse(escaped) as Record<string, unknown>;
  const profiles = new Map<string, ConfigProfile>();
  // In the file's order (`ini` lists dotted names last).
  const order = [...text.matchAll(/^\s*\[([^\]\r\n]+)\]/gm)].map((m) => m[1].trim());
  const sections = Object.entries(parsed).sort(([a], [b]) => order.indexOf(a) - order.indexOf(b));
  for (const [name, section] of sections) {
    if (section === null || typeof section !== 'object') continue; // a key before any section
    const profile: ConfigProfile = {};
    for (const [k, v] of Object.entries(section as Record<string, unknown>)) {
      if (v !== null && typeof v !== 'object') profile[k.toLowerCase()] = String(v).trim();
    }
    profiles.set(name, profile);
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
