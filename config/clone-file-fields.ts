import { existsSync, readFileSync } from 'node:fs';
import YAML from 'yaml';
import type { Fields } from '../activities/clone/logic/template-merge';

/** Config `clone:` keys that are also clone request fields. */
const CONFIG_CLONE_KEYS = [
  'max_workers',
  'parallel_tables',
  'rollback_threshold',
  'max_rps',
  'volume_max_file_mb',
  'dq_drift_rollback_pct',
  'dq_gate',
] as const;

/**
 * The clone fields the config FILE sets. Only keys written in the file count: the loaded config also holds
 * schema defaults, and those must not beat a template (built-in defaults < template < config file).
 */
export function configFileFields(configPath: string | null, clone: Partial<Record<string, unknown>>): Fields {
  if (!configPath || !existsSync(configPath)) return {};
  const raw = YAML.parse(readFileSync(configPath, 'utf8')) as { clone?: Record<string, unknown> } | null;
  const written = new Set(Object.keys(raw?.clone ?? {}));
  const out: Record<string, unknown> = {};
  for (const key of CONFIG_CLONE_KEYS) {
    if (written.has(key) && clone[key] !== undefined && clone[key] !== null) out[key] = clone[key];
  }
  return out as Fields;
}
