import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import type { z } from 'zod';
import { ConfigError, type ConfigIssue } from './errors';
import { envLayer, flagLayer, merge, type ConfigFlags, type Layer, type Tree } from './layers';
import { configSchema, type LakewardConfig } from './schema';

export type { ConfigFlags } from './layers';
export { ConfigError } from './errors';

/** The validated configuration with paths made absolute and the API key resolved. */
export type Config = LakewardConfig & {
  /** The config file that was read, if any. */
  config_path: string | null;
  workspace: LakewardConfig['workspace'] & { root: string };
};

export interface LoadConfigOptions {
  /** Explicit config file; it must exist. Defaults to LAKEWARD_CONFIG, then ./config/lakeward.yaml if present. */
  configPath?: string;
  flags?: ConfigFlags;
  env?: NodeJS.ProcessEnv;
  /** Base for relative paths (config file, data_dir). Defaults to process.cwd(). */
  cwd?: string;
}

/**
 * Builds the configuration: built-in defaults < config file < environment < flags (the last wins),
 * then validates it. A bad key or value throws ConfigError naming the key path and its source.
 */
export function loadConfig(opts: LoadConfigOptions = {}): Config {
  const env = opts.env ?? process.env;
  const cwd = opts.cwd ?? process.cwd();
  const configPath = pickConfigPath(opts.configPath ?? opts.flags?.config, env, cwd);
  const issues: ConfigIssue[] = [];

  const fileValues = configPath ? readConfigFile(configPath, issues) : {};
  const interpolated = interpolate(fileValues, env, '', issues) as Tree;
  if (issues.length > 0) throw new ConfigError(issues, configPath);

  const layers: Layer[] = [envLayer(env), flagLayer(opts.flags ?? {})];
  const raw = layers.reduce((acc, layer) => merge(acc, layer.values), interpolated);
  const parsed = configSchema.safeParse(raw);
  if (!parsed.success) throw new ConfigError(describeIssues(parsed.error, layers), configPath);
  return resolve(parsed.data, configPath, env, cwd);
}

function pickConfigPath(explicit: string | undefined, env: NodeJS.ProcessEnv, cwd: string): string | null {
  const chosen = explicit ?? (env.LAKEWARD_CONFIG || undefined);
  if (chosen) {
    const full = path.resolve(cwd, chosen);
    if (!existsSync(full)) throw new ConfigError([{ path: 'config', message: `file not found: ${full}` }], null);
    return full;
  }
  const conventional = path.resolve(cwd, 'config/lakeward.yaml');
  return existsSync(conventional) ? conventional : null;
}

function readConfigFile(file: string, issues: ConfigIssue[]): Tree {
  let doc: unknown;
  try {
    doc = YAML.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    issues.push({ path: '(file)', message: `not valid YAML: ${(err as Error).message}` });
    return {};
  }
  if (doc === null || doc === undefined) return {};
  if (typeof doc !== 'object' || Array.isArray(doc)) {
    issues.push({ path: '(file)', message: 'expected a mapping of keys at the top level' });
    return {};
  }
  return doc as Tree;
}

/** Replaces `${NAME}` in string values with the environment variable, so secrets stay out of the file. */
function interpolate(value: unknown, env: NodeJS.ProcessEnv, at: string, issues: ConfigIssue[]): unknown {
  if (typeof value === 'string') {
    return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_m, name: string) => {
      const found = env[name];
      if (found === undefined) issues.push({ path: at, message: `environment variable ${name} is not set` });
      return found ?? '';
    });
  }
  if (Array.isArray(value)) return value.map((v, i) => interpolate(v, env, `${at}[${i}]`, issues));
  if (typeof value === 'object' && value !== null) {
    const out: Tree = {};
    for (const [k, v] of Object.entries(value)) out[k] = interpolate(v, env, at ? `${at}.${k}` : k, issues);
    return out;
  }
  return value;
}

function describeIssues(error: z.ZodError, layers: Layer[]): ConfigIssue[] {
  const sourceOf = (dotted: string): string => {
    for (const layer of [...layers].reverse()) {
      const hit = layer.sources.get(dotted);
      if (hit) return ` (${hit})`;
    }
    return '';
  };
  return error.issues.flatMap((issue) => {
    const base = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((k) => ({ path: base ? `${base}.${k}` : k, message: 'unknown key' }));
    }
    return [{ path: base || '(root)', message: `${issue.message}${sourceOf(base)}` }];
  });
}

/** The Temporal Web UI: as configured, else the embedded dev server's (which listens on localhost:ui_port). */
export function temporalUiUrl(t: LakewardConfig['temporal']): string | null {
  if (t.ui_url) return t.ui_url.replace(/\/+$/, '');
  return t.address ? null : `http://localhost:${t.ui_port}`;
}

function resolve(cfg: LakewardConfig, configPath: string | null, env: NodeJS.ProcessEnv, cwd: string): Config {
  const dataDir = path.resolve(cwd, cfg.data_dir);
  const keyFromEnvName = cfg.api_server.api_key_env ? env[cfg.api_server.api_key_env] || null : null;
  if (cfg.api_server.api_key_env && !keyFromEnvName && !cfg.api_server.api_key) {
    const msg = `environment variable ${cfg.api_server.api_key_env} is not set`;
    throw new ConfigError([{ path: 'api_server.api_key_env', message: msg }], configPath);
  }
  const keys = cfg.api_server.keys.map((k, i) => {
    const key = k.key ?? (k.key_env ? env[k.key_env] || null : null);
    if (!key) {
      const msg = `environment variable ${k.key_env} is not set`;
      throw new ConfigError([{ path: `api_server.keys.${i}.key_env`, message: msg }], configPath);
    }
    return { ...k, key };
  });
  return {
    ...cfg,
    config_path: configPath,
    data_dir: dataDir,
    api_server: { ...cfg.api_server, api_key: cfg.api_server.api_key ?? keyFromEnvName, keys },
    workspace: { ...cfg.workspace, root: path.resolve(dataDir, cfg.workspace.root ?? 'workspace') },
    temporal: { ...cfg.temporal, ui_url: temporalUiUrl(cfg.temporal) },
  };
}
