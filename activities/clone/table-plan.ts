import type { CloneOptions } from '../../schemas/clone';
import type { DataFormat, TableRef, TimeTravel } from '../../platform/types';
import { whereClauseFor } from './selection';
import { lit, propertiesText, q, qRef, timeTravelText } from './sql-text';

/**
 * How one table is copied, decided once and used both to execute and to print the dry-run plan, so the
 * plan is exactly what runs.
 */
export type CopyMethod = 'clone' | 'select-copy' | 'iceberg-ctas' | 'cross-copy';

export interface TableCopyPlan {
  method: CopyMethod;
  cloneType: 'DEEP' | 'SHALLOW';
  source: TableRef;
  target: TableRef;
  at?: TimeTravel;
  where?: string;
  properties: Record<string, string>;
  /** Set the UniForm (Iceberg reads) properties on the destination after the copy. */
  uniform: boolean;
  warnings: string[];
  statements: string[];
}

export const UNIFORM_PROPERTIES: Record<string, string> = {
  'delta.columnMapping.mode': 'name',
  'delta.enableIcebergCompatV2': 'true',
  'delta.universalFormat.enabledFormats': 'iceberg',
};

export interface TablePlanInput {
  source: TableRef;
  target: TableRef;
  format: DataFormat | null;
  options: CloneOptions;
  crossWorkspace: boolean;
  /** The source version read just before copying; pins the copy when no as_of_* is given. */
  currentVersion: number | null;
  sourceLabel?: string;
  targetLabel?: string;
}

function requestedTimeTravel(o: CloneOptions, currentVersion: number | null): TimeTravel | undefined {
  if (o.as_of_version !== undefined) return { version: o.as_of_version };
  if (o.as_of_timestamp !== undefined) return { timestamp: o.as_of_timestamp };
  return currentVersion === null ? undefined : { version: currentVersion };
}

export function planTableCopy(input: TablePlanInput): TableCopyPlan {
  const { options: o, source, target } = input;
  const name = `${source.schema}.${source.name}`;
  const warnings: string[] = [];
  const properties = { ...o.clone_tbl_properties };
  let where = whereClauseFor(source.schema, source.name, o.where_clauses);
  if (where !== undefined && o.clone_type === 'SHALLOW') {
    warnings.push(`${name}: where_clauses ignored for a SHALLOW clone (filtered copies are DEEP only)`);
    where = undefined;
  }
  let at = requestedTimeTravel(o, input.currentVersion);
  const format = (input.format ?? 'DELTA').toUpperCase();
  let method: CopyMethod = 'clone';
  let uniform = false;
  if (o.target_format === 'ICEBERG' && o.iceberg_physical) {
    method = 'iceberg-ctas';
    if (o.as_of_version !== undefined || o.as_of_timestamp !== undefined) {
      warnings.push(
        `${name}: as_of_version/as_of_timestamp ignored for a physical Iceberg copy (CTAS keeps no history)`,
      );
    }
    at = undefined;
  } else if (input.crossWorkspace) {
    method = 'cross-copy';
    if (o.clone_type === 'SHALLOW')
      warnings.push(`${name}: SHALLOW across workspaces copies the data (the target cannot read the source's files)`);
  } else if (where !== undefined) {
    method = 'select-copy';
  } else if (format !== 'DELTA') {
    // CLONE reads a Delta log; other formats are copied with a select (they carry no history to keep).
    method = 'select-copy';
    warnings.push(`${name}: ${format} source copied with a select-based copy into Delta (CLONE needs a Delta source)`);
  }
  if (o.target_format === 'ICEBERG' && !o.iceberg_physical) {
    if (format === 'DELTA') uniform = true;
    else warnings.push(`${name}: target_format ICEBERG skipped for a ${format} source (UniForm needs a Delta table)`);
  }
  const plan: TableCopyPlan = {
    method,
    cloneType: o.clone_type,
    source,
    target,
    at,
    where,
    properties,
    uniform,
    warnings,
    statements: [],
  };
  plan.statements = statementsFor(plan, input);
  return plan;
}

function statementsFor(p: TableCopyPlan, input: TablePlanInput): string[] {
  const select = `SELECT * FROM ${qRef(p.source)}${timeTravelText(p.at)}${p.where !== undefined ? ` WHERE ${p.where}` : ''}`;
  const out: string[] = [];
  if (p.method === 'clone') {
    out.push(
      `CREATE OR REPLACE TABLE ${qRef(p.target)} ${p.cloneType} CLONE ${qRef(p.source)}${timeTravelText(p.at)}${propertiesText(p.properties)}`,
    );
  } else if (p.method === 'select-copy') {
    out.push(`CREATE OR REPLACE TABLE ${qRef(p.target)}${propertiesText(p.properties)} AS ${select}`);
  } else if (p.method === 'iceberg-ctas') {
    out.push(`CREATE OR REPLACE TABLE ${qRef(p.target)} USING ICEBERG${propertiesText(p.properties)} AS ${select}`);
  } else {
    out.push(
      `-- from ${input.sourceLabel ?? 'source'} to ${input.targetLabel ?? 'target'}\n` +
        `CREATE OR REPLACE TABLE ${qRef(p.target)}${propertiesText(p.properties)} AS ${select}`,
    );
  }
  if (p.uniform) out.push(`ALTER TABLE ${qRef(p.target)} SET${propertiesText(UNIFORM_PROPERTIES)}`);
  return out;
}

export const createCatalogText = (name: string, location?: string) =>
  `CREATE CATALOG IF NOT EXISTS ${q(name)}${location ? ` MANAGED LOCATION ${lit(location)}` : ''}`;
export const createSchemaText = (catalog: string, schema: string) =>
  `CREATE SCHEMA IF NOT EXISTS ${q(catalog)}.${q(schema)}`;
