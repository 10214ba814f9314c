import type { TTypeDesc } from '@databricks/sql/thrift/TCLIService_types';

/** Thrift TTypeId numbers (TCLIService.thrift) to Databricks SQL type names. */
const NAMES: Record<number, string> = {
  0: 'boolean',
  1: 'tinyint',
  2: 'smallint',
  3: 'int',
  4: 'bigint',
  5: 'float',
  6: 'double',
  7: 'string',
  8: 'timestamp',
  9: 'binary',
  10: 'array',
  11: 'map',
  12: 'struct',
  13: 'union',
  14: 'user_defined',
  15: 'decimal',
  16: 'void',
  17: 'date',
  18: 'varchar',
  19: 'char',
  20: 'interval year to month',
  21: 'interval day to second',
};

export function typeName(desc: TTypeDesc | undefined): string {
  const entry = desc?.types?.[0];
  const id = entry?.primitiveEntry?.type;
  if (id !== undefined) return NAMES[id] ?? 'unknown';
  if (entry?.arrayEntry) return 'array';
  if (entry?.mapEntry) return 'map';
  if (entry?.structEntry) return 'struct';
  return 'unknown';
}
