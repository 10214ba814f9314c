import type { TableRef, TimeTravel } from '../../platform/types';

/**
 * Databricks-style SQL text for dry-run plans and job logs. Execution goes through the platform port; these
 * strings describe exactly what each port call does, in the statement a Databricks user would recognise.
 */
export const q = (name: string) => '`' + name.replace(/`/g, '``') + '`';
export const qRef = (r: TableRef) => `${q(r.catalog)}.${q(r.schema)}.${q(r.name)}`;
export const lit = (v: string) => `'${v.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

export function timeTravelText(at?: TimeTravel): string {
  if (at?.version !== undefined) return ` VERSION AS OF ${at.version}`;
  if (at?.timestamp !== undefined) return ` TIMESTAMP AS OF ${lit(at.timestamp)}`;
  return '';
}

export function propertiesText(props: Record<string, string> | undefined): string {
  const entries = Object.entries(props ?? {});
  return entries.length === 0 ? '' : ` TBLPROPERTIES (${entries.map(([k, v]) => `${lit(k)} = ${lit(v)}`).join(', ')})`;
}
