import { InvalidInputError } from '../../errors';

/** Iceberg v2 table-format shapes the local lakehouse writes and reads (https://iceberg.apache.org/spec/). */

export interface IcebergField {
  id: number;
  name: string;
  required: boolean;
  type: string;
}

export interface IcebergSchema {
  type: 'struct';
  'schema-id': number;
  fields: IcebergField[];
}

export interface PartitionField {
  'source-id': number;
  'field-id': number;
  name: string;
  transform: string;
}

export interface Snapshot {
  'snapshot-id': number;
  'parent-snapshot-id'?: number;
  'sequence-number': number;
  'timestamp-ms': number;
  'manifest-list': string;
  summary: Record<string, string>;
  'schema-id': number;
}

export interface TableMetadata {
  'format-version': 2;
  'table-uuid': string;
  location: string;
  'last-sequence-number': number;
  'last-updated-ms': number;
  'last-column-id': number;
  'current-schema-id': number;
  schemas: IcebergSchema[];
  'default-spec-id': number;
  'partition-specs': { 'spec-id': number; fields: PartitionField[] }[];
  'last-partition-id': number;
  'default-sort-order-id': number;
  'sort-orders': { 'order-id': number; fields: unknown[] }[];
  properties: Record<string, string>;
  'current-snapshot-id'?: number | null;
  snapshots: Snapshot[];
  'snapshot-log': { 'snapshot-id': number; 'timestamp-ms': number }[];
  'metadata-log': { 'metadata-file': string; 'timestamp-ms': number }[];
  refs?: Record<string, { 'snapshot-id': number; type: 'branch' | 'tag' }>;
}

/** Databricks type text → Iceberg primitive type. Nested types are not written by the local lakehouse. */
export function icebergType(databricksType: string): string {
  const t = databricksType.trim().toLowerCase();
  const dec = /^decimal\((\d+),\s*(\d+)\)$/.exec(t);
  if (dec) return `decimal(${dec[1]}, ${dec[2]})`;
  const map: Record<string, string> = {
    bigint: 'long',
    long: 'long',
    int: 'int',
    integer: 'int',
    smallint: 'int',
    tinyint: 'int',
    short: 'int',
    byte: 'int',
    string: 'string',
    varchar: 'string',
    double: 'double',
    float: 'float',
    boolean: 'boolean',
    date: 'date',
    timestamp: 'timestamptz',
    timestamp_ntz: 'timestamp',
    binary: 'binary',
    decimal: 'decimal(10, 0)',
  };
  const out = map[t] ?? (/^(varchar|char)\(\d+\)$/.test(t) ? 'string' : undefined);
  if (!out)
    throw new InvalidInputError(`type ${databricksType} is not supported in Iceberg tables of the local lakehouse`);
  return out;
}

/** Iceberg primitive type → Databricks type text. */
export function databricksType(iceberg: unknown): string {
  if (typeof iceberg !== 'string')
    throw new InvalidInputError(`nested Iceberg type ${JSON.stringify(iceberg)} is not supported`);
  const dec = /^decimal\((\d+),\s*(\d+)\)$/.exec(iceberg);
  if (dec) return `decimal(${dec[1]},${dec[2]})`;
  const map: Record<string, string> = {
    long: 'bigint',
    int: 'int',
    string: 'string',
    double: 'double',
    float: 'float',
    boolean: 'boolean',
    date: 'date',
    timestamptz: 'timestamp',
    timestamp: 'timestamp_ntz',
    binary: 'binary',
    uuid: 'string',
  };
  const out = map[iceberg];
  if (!out) throw new InvalidInputError(`Iceberg type ${iceberg} is not supported by the local lakehouse`);
  return out;
}

const optional = (fieldId: number, name: string, type: unknown) => ({
  name,
  type: ['null', type],
  default: null,
  'field-id': fieldId,
});

/** Avro schema of a v2 manifest entry for an unpartitioned or identity-partitioned spec. */
export function manifestEntrySchema(partition: { name: string; fieldId: number; avroType: string }[]) {
  return {
    type: 'record',
    name: 'manifest_entry',
    fields: [
      { name: 'status', type: 'int', 'field-id': 0 },
      optional(1, 'snapshot_id', 'long'),
      optional(3, 'sequence_number', 'long'),
      optional(4, 'file_sequence_number', 'long'),
      {
        name: 'data_file',
        'field-id': 2,
        type: {
          type: 'record',
          name: 'r2',
          fields: [
            { name: 'content', type: 'int', 'field-id': 134 },
            { name: 'file_path', type: 'string', 'field-id': 100 },
            { name: 'file_format', type: 'string', 'field-id': 101 },
            {
              name: 'partition',
              'field-id': 102,
              type: {
                type: 'record',
                name: 'r102',
                fields: partition.map((p) => optional(p.fieldId, p.name, p.avroType)),
              },
            },
            { name: 'record_count', type: 'long', 'field-id': 103 },
            { name: 'file_size_in_bytes', type: 'long', 'field-id': 104 },
          ],
        },
      },
    ],
  };
}

/** Avro schema of a v2 manifest list entry (manifest_file). */
export const MANIFEST_FILE_SCHEMA = {
  type: 'record',
  name: 'manifest_file',
  fields: [
    { name: 'manifest_path', type: 'string', 'field-id': 500 },
    { name: 'manifest_length', type: 'long', 'field-id': 501 },
    { name: 'partition_spec_id', type: 'int', 'field-id': 502 },
    { name: 'content', type: 'int', 'field-id': 517 },
    { name: 'sequence_number', type: 'long', 'field-id': 515 },
    { name: 'min_sequence_number', type: 'long', 'field-id': 516 },
    { name: 'added_snapshot_id', type: 'long', 'field-id': 503 },
    { name: 'added_files_count', type: 'int', 'field-id': 504 },
    { name: 'existing_files_count', type: 'int', 'field-id': 505 },
    { name: 'deleted_files_count', type: 'int', 'field-id': 506 },
    { name: 'added_rows_count', type: 'long', 'field-id': 512 },
    { name: 'existing_rows_count', type: 'long', 'field-id': 513 },
    { name: 'deleted_rows_count', type: 'long', 'field-id': 514 },
  ],
};
