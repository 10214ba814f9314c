import type { ConvertFormat, ConvertTarget, Strategy } from '../../../schemas/convert';

/** The conversion matrix, strategies and step plans of the specification's "Convert" section. Pure. */

export interface TableName {
  catalog: string;
  schema: string;
  name: string;
}

/** Backtick-quoted three-part name, as Databricks SQL writes it. */
export const quoted = (t: TableName) =>
  [t.catalog, t.schema, t.name].map((p) => `\`${p.replace(/`/g, '``')}\``).join('.');
const lit = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
const props = (p: Record<string, string>) =>
  `(${Object.entries(p)
    .map(([k, v]) => `${lit(k)} = ${lit(v)}`)
    .join(', ')})`;

export type PairKind = 'identity' | 'rejected' | Strategy;

/** What the matrix says of a pair; DELTA → ICEBERG depends on iceberg_physical. */
export function pairKind(source: ConvertFormat, target: ConvertFormat, icebergPhysical: boolean): PairKind {
  if (source === target) return 'identity';
  if (source === 'HUDI' || target === 'HUDI') return 'rejected';
  if (target === 'DELTA') return 'convert_to_delta'; // PARQUET or ICEBERG → DELTA
  if (target === 'PARQUET') return 'ctas_parquet'; // DELTA or ICEBERG → PARQUET
  if (source === 'DELTA') return icebergPhysical ? 'ctas_iceberg' : 'uniform';
  return 'ctas_iceberg'; // PARQUET → ICEBERG
}

/** The targets whose pair is not supported, as `fqn (SOURCE→TARGET)` (the 422's message lists them). */
export function rejectedPairs(targets: ConvertTarget[]): string[] {
  return targets
    .filter((t) => pairKind(t.source_format, t.target_format, false) === 'rejected')
    .map((t) => `${t.fqn} (${t.source_format}→${t.target_format})`);
}

export type StepAction =
  | { kind: 'convert' }
  | { kind: 'set_properties'; properties: Record<string, string> }
  | { kind: 'purge_deletion_vectors' }
  | { kind: 'create_as'; target: TableName; format: 'ICEBERG' | 'PARQUET' }
  | { kind: 'rename'; from: TableName; to: TableName }
  | { kind: 'drop'; table: TableName };

export interface PlannedStep {
  label: string;
  statement: string;
  action: StepAction;
}

export const UNIFORM_PROPERTIES: Readonly<Record<string, string>> = {
  'delta.columnMapping.mode': 'name',
  'delta.enableIcebergCompatV2': 'true',
  'delta.universalFormat.enabledFormats': 'iceberg',
};

/** `<name>_pre_convert_<UTC yyyymmddHHMMSS>` */
export function backupName(t: TableName, at: Date): TableName {
  const stamp = at.toISOString().replace(/[-:T]/g, '').slice(0, 14);
  return { ...t, name: `${t.name}_pre_convert_${stamp}` };
}

/** The steps of a strategy, each with its label and the statement Databricks receives. */
export function planSteps(
  strategy: Strategy,
  table: TableName,
  opts: { keepBackup: boolean; at: Date },
): { steps: PlannedStep[]; backup: TableName | null } {
  const fqn = quoted(table);
  if (strategy === 'convert_to_delta')
    return {
      steps: [{ label: 'convert to delta', statement: `CONVERT TO DELTA ${fqn}`, action: { kind: 'convert' } }],
      backup: null,
    };
  if (strategy === 'uniform') {
    const off = { 'delta.enableDeletionVectors': 'false' };
    return {
      steps: [
        {
          label: 'disable deletion vectors',
          statement: `ALTER TABLE ${fqn} SET TBLPROPERTIES ${props(off)}`,
          action: { kind: 'set_properties', properties: off },
        },
        {
          label: 'purge deletion vectors',
          statement: `REORG TABLE ${fqn} APPLY (PURGE)`,
          action: { kind: 'purge_deletion_vectors' },
        },
        {
          label: 'set interoperability properties',
          statement: `ALTER TABLE ${fqn} SET TBLPROPERTIES ${props({ ...UNIFORM_PROPERTIES })}`,
          action: { kind: 'set_properties', properties: { ...UNIFORM_PROPERTIES } },
        },
      ],
      backup: null,
    };
  }
  const format = strategy === 'ctas_iceberg' ? 'ICEBERG' : 'PARQUET';
  const tmp = { ...table, name: `${table.name}_convert_tmp` };
  const backup = opts.keepBackup ? backupName(table, opts.at) : null;
  const steps: PlannedStep[] = [
    {
      label: 'create temp table',
      statement: `CREATE TABLE ${quoted(tmp)} USING ${format.toLowerCase()} AS SELECT * FROM ${fqn}`,
      action: { kind: 'create_as', target: tmp, format },
    },
    backup
      ? {
          label: 'rename source aside',
          statement: `ALTER TABLE ${fqn} RENAME TO ${quoted(backup)}`,
          action: { kind: 'rename', from: table, to: backup },
        }
      : { label: 'drop source', statement: `DROP TABLE ${fqn}`, action: { kind: 'drop', table } },
    {
      label: 'rename temp to original',
      statement: `ALTER TABLE ${quoted(tmp)} RENAME TO ${fqn}`,
      action: { kind: 'rename', from: tmp, to: table },
    },
  ];
  return { steps, backup };
}

/** What the table description says for preflight. */
export interface TableFacts {
  /** Partition transforms of an Iceberg source (`identity`, `bucket[4]`, `day`, …). */
  icebergTransforms: string[];
  /** Columns defined GENERATED ALWAYS AS (…) or as identity columns. */
  generatedColumns: string[];
}

/**
 * Rule 2 of the specification: an ICEBERG source with hidden partitioning (any transform but identity) is refused
 * whatever the target; a DELTA source with generated or identity columns is refused to ICEBERG or PARQUET.
 * Returns the refusal, or null when the conversion may proceed.
 */
export function preflightRefusal(source: ConvertFormat, target: ConvertFormat, facts: TableFacts): string | null {
  if (source === 'ICEBERG') {
    const hidden = facts.icebergTransforms.filter((t) => t !== 'identity' && t !== 'void');
    if (hidden.length)
      return `compat preflight refused: Iceberg hidden partitioning (${hidden.join(', ')}) has no equivalent in ${target}`;
  }
  if (source === 'DELTA' && (target === 'ICEBERG' || target === 'PARQUET') && facts.generatedColumns.length)
    return `compat preflight refused: generated or identity columns (${facts.generatedColumns.join(', ')}) cannot be represented in ${target}`;
  return null;
}
