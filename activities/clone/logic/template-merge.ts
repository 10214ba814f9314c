import { applyCloneDefaults, type CloneOptions, type CloneRequestInput } from '../../../schemas/clone';
import type { CloneTemplate, TemplateSettings } from './template-schema';

export type Fields = Partial<Record<keyof CloneRequestInput, unknown>>;

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
    dq_gate: t.dq_gate,
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
