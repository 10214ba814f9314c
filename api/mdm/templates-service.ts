import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { recordsColumns, recordsTable } from '../../activities/mdm/logic/standardise';
import { CheckCreateSchema } from '../../schemas/data-quality';
import { MdmModelSchema, type MdmModel } from '../../schemas/mdm';
import { TemplateSchema, type Template } from '../../schemas/mdm-templates';
import { listChecks } from '../../store/data-quality/checks';
import { getModel, putModel, recordMdmAudit } from '../../store/mdm/repo';
import { ensureDomain, getCode } from '../../store/mdm/reference';
import { createChecks } from '../data-quality/checks-service';
import type { AppDeps } from '../deps';
import { checkCode, problemError, publishMapping, saveCode } from './reference-service';
import { invalid, mdmWorkspace, modelOf } from './service';

/** Industry templates: `config/mdm/templates/*.yaml` of the source tree. */
export const TEMPLATES_DIR = path.resolve(__dirname, '../../config/mdm/templates');

export function loadTemplates(): Template[] {
  const files = readdirSync(TEMPLATES_DIR)
    .filter((f) => /\.ya?ml$/.test(f))
    .sort();
  return files.map((f) => {
    const r = TemplateSchema.safeParse(parseYaml(readFileSync(path.join(TEMPLATES_DIR, f), 'utf8')));
    if (!r.success)
      throw new Error(
        `config/mdm/templates/${f}: ${r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
      );
    return r.data;
  });
}

/** The model a template gives an entity type: its attributes, match rules and merge strategies together. */
export function templateModel(t: Template, entityType: string): MdmModel {
  const e = t.entities[entityType];
  const rules = t.match_rules[entityType];
  const merge = t.merge_strategies[entityType];
  const attributes = Object.fromEntries(
    Object.entries(e.attributes).map(([a, spec]) => [
      a,
      { ...spec, survivorship: merge?.attributes[a] ?? spec.survivorship },
    ]),
  );
  const parsed = MdmModelSchema.safeParse({
    entity_type: entityType,
    description: e.description,
    attributes,
    deterministic_rules: rules?.deterministic_rules ?? [],
    blocking_rules: rules?.blocking_rules ?? [],
    review_floor: rules?.review_floor,
    source_priority: merge?.source_priority ?? [],
  });
  if (!parsed.success)
    throw invalid(
      'INVALID_TEMPLATE',
      `Template ${t.name} gives ${entityType} an invalid model`,
      parsed.error.issues.map((i) => ({ path: `template.${entityType}.${i.path.join('.')}`, message: i.message })),
    );
  return parsed.data;
}

/** Canonical JSON (sorted keys) so a stored model compares equal to the template's whatever the key order. */
const canonical = (v: unknown): string =>
  JSON.stringify(v, (_k, val: unknown) =>
    val && typeof val === 'object' && !Array.isArray(val)
      ? Object.fromEntries(Object.entries(val as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)))
      : val,
  );

type Outcome = 'created' | 'updated' | 'unchanged';

/**
 * Applies a template: models and source_records tables (entities / match_rules), reference data and hierarchies
 * (reference_data), DQX checks on the source_records tables through the data-quality engine (dq_rules). Each part
 * is written only when it differs, so a second apply changes nothing and says so.
 */
export async function applyTemplate(
  deps: AppDeps,
  t: Template,
  targetCatalog: string,
  components: string[],
  actor: string,
) {
  const db = deps.store.db;
  const ws = await mdmWorkspace(deps);
  const want = new Set(components);
  const entities: { entity_type: string; model: Outcome; table: Outcome; table_fqn: string }[] = [];
  const models = Object.keys(t.entities).map((et) => templateModel(t, et));
  if (want.has('entities') || want.has('match_rules') || want.has('dq_rules')) {
    for (const model of models) {
      const table = recordsTable(targetCatalog, model.entity_type);
      const tableFqn = `${table.catalog}.${table.schema}.${table.name}`;
      let modelOutcome: Outcome = 'unchanged';
      let tableOutcome: Outcome = 'unchanged';
      if (want.has('entities') || want.has('match_rules')) {
        const existing = await getModel(db, model.entity_type);
        if (!existing || canonical(modelOf(existing)) !== canonical(model)) {
          await putModel(db, model.entity_type, model as unknown as Record<string, unknown>);
          modelOutcome = existing ? 'updated' : 'created';
        }
        if (!(await ws.tableExists(table))) {
          await ws.createCatalog({ name: targetCatalog, ifNotExists: true });
          await ws.createSchema({ catalog: targetCatalog, name: table.schema, ifNotExists: true });
          await ws.createTable({
            ref: table,
            columns: recordsColumns(model),
            comment: `MDM source records of ${model.entity_type}`,
          });
          tableOutcome = 'created';
        }
      }
      entities.push({ entity_type: model.entity_type, model: modelOutcome, table: tableOutcome, table_fqn: tableFqn });
    }
  }
  const reference: { domain: string; created: number; updated: number; unchanged: number }[] = [];
  if (want.has('reference_data')) {
    for (const d of [...t.reference_data, ...t.hierarchies]) {
      const tally = { domain: d.domain, created: 0, updated: 0, unchanged: 0 };
      await ensureDomain(db, d.domain, d.description ?? null);
      for (const c of d.codes) {
        const code = {
          code: c.code,
          description: c.description ?? null,
          aliases: c.aliases,
          parent: c.parent ?? null,
          valid_from: null,
          valid_to: null,
        };
        const row = await getCode(db, d.domain, c.code);
        const same =
          row &&
          row.description === code.description &&
          canonical(row.aliases) === canonical(code.aliases) &&
          row.parent === code.parent &&
          row.validFrom === null &&
          row.validTo === null;
        if (same) {
          tally.unchanged++;
          continue;
        }
        const { problems, aliases } = await checkCode(db, d.domain, code);
        if (problems.length) throw problemError(problems, `template.${t.name}.${d.domain}.${c.code}`);
        await saveCode(db, d.domain, code, aliases);
        tally[row ? 'updated' : 'created']++;
      }
      reference.push(tally);
    }
    if (reference.some((r) => r.created + r.updated > 0)) await publishMapping(deps, ws);
  }
  const checks: { table_fqn: string; created: number; unchanged: number }[] = [];
  if (want.has('dq_rules')) {
    for (const [et, rules] of Object.entries(t.dq_rules)) {
      const table = recordsTable(targetCatalog, et);
      const tableFqn = `${table.catalog}.${table.schema}.${table.name}`;
      const tally = { table_fqn: tableFqn, created: 0, unchanged: 0 };
      if (!(await ws.tableExists(table)))
        throw invalid('TABLE_MISSING', 'DQ rules need the source_records table', [
          { path: 'body.components', message: `${tableFqn} does not exist: apply entities first` },
        ]);
      const have = new Set((await listChecks(db, { tableFqn })).map((c) => c.name));
      for (const r of rules) {
        if (have.has(r.name)) {
          tally.unchanged++;
          continue;
        }
        await createChecks(
          deps,
          CheckCreateSchema.parse({
            table_fqn: tableFqn,
            name: r.name,
            check_function: r.check_function,
            arguments: r.arguments,
            criticality: r.criticality,
            user_metadata: { template: t.name },
          }),
        );
        tally.created++;
      }
      checks.push(tally);
    }
  }
  const changed =
    entities.some((e) => e.model !== 'unchanged' || e.table !== 'unchanged') ||
    reference.some((r) => r.created + r.updated > 0) ||
    checks.some((c) => c.created > 0);
  if (changed)
    await recordMdmAudit(db, {
      actor,
      action: 'template_applied',
      objectType: 'template',
      objectId: t.name,
      details: { target_catalog: targetCatalog, components },
    });
  return {
    template: t.name,
    target_catalog: targetCatalog,
    changed,
    entities,
    reference_data: reference,
    dq_rules: checks,
  };
}
