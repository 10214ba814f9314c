import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { parse as parseYaml } from 'yaml';
import { BUILTIN_REPORTS, checkSingleSelect } from '../../activities/mdm/logic/report-defs';
import { ReportDefinitionSchema, type ReportDefinition } from '../../schemas/mdm-reports';
import type { Db } from '../../store/db';
import { mdmReports } from '../../store/mdm/steward-tables';
import { invalid } from './service';

/** Custom report files: `config/mdm/reports/*.yaml` of the source tree. */
export const REPORTS_DIR = path.resolve(__dirname, '../../config/mdm/reports');

export interface ReportEntry {
  name: string;
  title: string;
  description: string | null;
  origin: 'builtin' | 'config' | 'api';
  parameters: ReportDefinition['parameters'];
  viz: ReportDefinition['viz'] | null;
  sql: string | null;
}

/** A custom report definition (YAML or JSON) as validated; a 422 names each problem's path. */
export function parseReportDefinition(raw: unknown, prefix = 'body'): ReportDefinition {
  let value = raw;
  if (raw && typeof raw === 'object' && 'yaml' in raw && typeof (raw as { yaml: unknown }).yaml === 'string') {
    try {
      value = parseYaml((raw as { yaml: string }).yaml);
    } catch (err) {
      throw invalid('INVALID_REPORT', 'The report is not valid YAML', [
        { path: `${prefix}.yaml`, message: (err as Error).message.split('\n')[0] },
      ]);
    }
  }
  const r = ReportDefinitionSchema.safeParse(value);
  if (!r.success)
    throw invalid(
      'INVALID_REPORT',
      'Invalid report',
      r.error.issues.map((i) => ({ path: [prefix, ...i.path.map(String)].join('.'), message: i.message })),
    );
  const single = checkSingleSelect(r.data.sql);
  if ('problem' in single)
    throw invalid('INVALID_REPORT', 'Invalid report SQL', [{ path: `${prefix}.sql`, message: single.problem }]);
  if (BUILTIN_REPORTS.some((b) => b.name === r.data.name))
    throw invalid('INVALID_REPORT', 'Reserved name', [
      { path: `${prefix}.name`, message: `${r.data.name} is a built-in report` },
    ]);
  return r.data;
}

function configReports(): ReportEntry[] {
  let files: string[] = [];
  try {
    files = readdirSync(REPORTS_DIR).filter((f) => /\.ya?ml$/.test(f));
  } catch {
    return [];
  }
  return files.sort().map((f) => {
    const def = parseReportDefinition(
      parseYaml(readFileSync(path.join(REPORTS_DIR, f), 'utf8')),
      `config/mdm/reports/${f}`,
    );
    return entryOf(def, 'config');
  });
}

const entryOf = (d: ReportDefinition, origin: 'config' | 'api'): ReportEntry => ({
  name: d.name,
  title: d.title,
  description: d.description ?? null,
  origin,
  parameters: d.parameters,
  viz: d.viz ?? null,
  sql: d.sql,
});

/** Every report: the ten built-ins, then config files, then those posted through the API. */
export async function allReports(db: Db): Promise<ReportEntry[]> {
  const builtins: ReportEntry[] = BUILTIN_REPORTS.map((b) => ({
    name: b.name,
    title: b.title,
    description: b.description,
    origin: 'builtin',
    parameters: {},
    viz: b.viz,
    sql: null,
  }));
  const stored = (await db.select().from(mdmReports)).map((r) =>
    entryOf(ReportDefinitionSchema.parse(r.definition), 'api'),
  );
  const seen = new Set<string>();
  return [...builtins, ...configReports(), ...stored].filter((r) => !seen.has(r.name) && seen.add(r.name));
}

export async function saveReport(db: Db, def: ReportDefinition, by: string): Promise<boolean> {
  const existed = (await db.select().from(mdmReports).where(eq(mdmReports.name, def.name))).length > 0;
  await db
    .insert(mdmReports)
    .values({ name: def.name, definition: def as unknown as Record<string, unknown>, createdBy: by })
    .onConflictDoUpdate({
      target: mdmReports.name,
      set: { definition: def as unknown as Record<string, unknown>, createdBy: by },
    });
  return existed;
}

export async function deleteReport(db: Db, name: string): Promise<boolean> {
  return (await db.delete(mdmReports).where(eq(mdmReports.name, name)).returning()).length > 0;
}
