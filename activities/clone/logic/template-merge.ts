import { existsSync, readFileSync } from 'node:fs';
import YAML from 'yaml';
import { applyCloneDefaults, type CloneOptions, type CloneRequestInput } from '../../../schemas/clone';
import type { CloneTemplate, TemplateSettings } from './schema';

type Fields = Partial<Record<keyof CloneRequestInput, unknown>>;

const defined = (o: Record<string, unknown>): Fields =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Fields;

/** The clone request fields a template sets (only the keys it names). */
export function templateFields(t: CloneTemplate): Fields {
  const { checkpoint: _c, compliance_report: _r, ...safety } = t.safety ?? {};
  const { schema_only: _s, ...cloneOptions } = t.clone_options ?? {};
  const { exclude_pii_tagged_schemas: _e, ...filters } = t.filters ?? {};
  return defined({
    ...cloneOptions,
    ...t.metadata,
    ...safety,
    ...filters,
    auto_mask_pii: t.masking?.enabled,
    pii_mask_strategy: t.masking?.strategy,
    pii_mask_rules: t.masking?.rules,
    throttle: t.throttle,
  });
}

export function templateSettings(t: CloneTemplate): TemplateSettings {
  return {
    name: t.name,
    version: t.version,
    checkpoint: t.safety?.checkpoint,
    schema_only: t.clone_options?.schema_only,
    compliance_report: t.safety?.compliance_report,
    exclude_pii_tagged_schemas: t.filters?.exclude_pii_tagged_schemas,
    masking_rules_file: t.masking?.rules_file,
    notifications: t.notifications,
  };
}

/** Config `clone:` keys that are also clone request fields. */
const CONFIG_CLONE_KEYS = [
  'max_workers',
  'parallel_tables',
  'rollback_threshold',
  'max_rps',
  'volume_max_file_mb',
  'dq_drift_rollback_pct',
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

export interface ResolvedClone {
  options: CloneOptions;
  template: TemplateSettings | null;
}

/**
 * Effective clone options: built-in defaults < template < config file < request fields (the last wins).
 * `request` must be the parsed request WITHOUT defaults, so that only what the caller set overrides.
 */
export function resolveCloneOptions(args: {
  request: CloneRequestInput;
  template?: CloneTemplate | null;
  configFile?: Fields;
}): ResolvedClone {
  const fromTemplate = args.template ? templateFields(args.template) : {};
  const merged = { ...fromTemplate, ...(args.configFile ?? {}), ...defined(args.request as Record<string, unknown>) };
  return {
    options: applyCloneDefaults(merged as CloneRequestInput),
    template: args.template ? templateSettings(args.template) : null,
  };
}
