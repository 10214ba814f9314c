import type { Workspace } from '../../../platform/port';
import type { CloneOptions } from '../../../schemas/clone';
import type { JobSettings } from '../../jobs/settings';
import { tagsMarkPii } from '../masking/pii';
import type { TemplateSettings } from './template-schema';

/** Empty copies come from the engine's select-based DEEP copy with this predicate on every table. */
export const SCHEMA_ONLY_WHERE = 'FALSE';
export const SCHEMA_ONLY_WARNING = 'schema_only: tables created empty via a select-based copy';

/** Schemas of `catalog` whose own tags mark them as holding personal data (same rule as column masking). */
export async function piiTaggedSchemas(ws: Workspace, catalog: string): Promise<string[]> {
  const out: string[] = [];
  for (const s of await ws.listSchemas(catalog)) {
    const tags = await ws.getTags({ type: 'SCHEMA', catalog, schema: s.name });
    if (tagsMarkPii(tags)) out.push(s.name);
  }
  return out.sort();
}

export interface TemplateEffects {
  /** The options with the template-only settings applied (a new object; the input is not changed). */
  options: CloneOptions;
  settings: JobSettings;
}

/**
 * Applies the template settings that are not clone request fields, after the merge (so precedence is kept):
 * - schema_only: the engine has no structure-only mode, but its select-based DEEP copy honours where_clauses,
 *   so `'*': FALSE` creates every table with the source's columns and no rows. Skipped when the request gives
 *   its own where_clauses or asks for SHALLOW (request fields win). Row-count checks are turned off: they would
 *   compare N source rows with 0 and fail the job.
 * - exclude_pii_tagged_schemas: schemas tagged as PII on the source are added to exclude_schemas.
 * - notifications and compliance_report: carried to the job-end recorder.
 * - checkpoint: nothing to do; jobs are always durable (Temporal history + per-table done state).
 */
export async function applyTemplateEffects(args: {
  options: CloneOptions;
  template: TemplateSettings | null;
  /** clone_type as the request gave it (a template's SHALLOW gives way to its own schema_only). */
  requestCloneType?: string;
  /** Lists the source's PII-tagged schemas; called only when the template asks for it. */
  piiSchemas: () => Promise<string[]>;
}): Promise<TemplateEffects> {
  const t = args.template;
  const options: CloneOptions = { ...args.options };
  const warnings: string[] = [];
  if (t?.schema_only) {
    if (Object.keys(options.where_clauses ?? {}).length > 0) {
      warnings.push('schema_only ignored: the request gives its own where_clauses');
    } else if (args.requestCloneType === 'SHALLOW') {
      warnings.push('schema_only ignored: the request asks for a SHALLOW clone (empty copies are DEEP only)');
    } else {
      options.clone_type = 'DEEP';
      options.where_clauses = { '*': SCHEMA_ONLY_WHERE };
      warnings.push(SCHEMA_ONLY_WARNING);
      const checks = (['validate_after_clone', 'validate_checksum', 'compare_dq_after_clone'] as const).filter(
        (k) => options[k],
      );
      for (const k of checks) options[k] = false;
      if (checks.length) warnings.push(`schema_only: ${checks.join(', ')} turned off (tables are empty on purpose)`);
    }
  }
  if (t?.exclude_pii_tagged_schemas) {
    const pii = await args.piiSchemas();
    const excluded = new Set((options.exclude_schemas ?? []).map((s) => s.toLowerCase()));
    const added = pii.filter((s) => !excluded.has(s.toLowerCase()));
    options.exclude_schemas = [...(options.exclude_schemas ?? []), ...added];
    warnings.push(
      pii.length
        ? `exclude_pii_tagged_schemas: left out PII-tagged schema(s) ${pii.join(', ')}`
        : `exclude_pii_tagged_schemas: no schema of ${options.source_catalog} is tagged as PII`,
    );
  }
  return {
    options,
    settings: {
      notify_on_success: t?.notifications?.on_success !== false,
      notify_on_failure: t?.notifications?.on_failure !== false,
      compliance_report: t?.compliance_report === true,
      warnings,
    },
  };
}
