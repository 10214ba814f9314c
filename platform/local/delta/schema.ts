import { DuckDBTypeId, type DuckDBType } from '@duckdb/node-api';
import { InvalidInputError } from '../../errors';
import { duckIdent } from '../duck';
import type { DeltaField } from './contract';
import { parseTypeText, typeText, type TypeNode } from './type-text';

/** Databricks primitive name → Delta/Spark JSON name (PROTOCOL.md "Schema Serialization Format"). */
const TO_SPARK: Record<string, string> = { bigint: 'long', int: 'integer', smallint: 'short', tinyint: 'byte' };
const FROM_SPARK: Record<string, string> = { long: 'bigint', integer: 'int', short: 'smallint', byte: 'tinyint' };
const TO_DUCK: Record<string, string> = {
  bigint: 'BIGINT',
  int: 'INTEGER',
  smallint: 'SMALLINT',
  tinyint: 'TINYINT',
  double: 'DOUBLE',
  float: 'FLOAT',
  boolean: 'BOOLEAN',
  string: 'VARCHAR',
  binary: 'BLOB',
  date: 'DATE',
  timestamp: 'TIMESTAMPTZ',
  timestamp_ntz: 'TIMESTAMP',
  void: 'INTEGER',
};

type SparkType = string | Record<string, unknown>;

function toSpark(node: TypeNode): SparkType {
  switch (node.kind) {
    case 'primitive':
      return TO_SPARK[node.name] ?? node.name;
    case 'decimal':
      return `decimal(${node.precision},${node.scale})`;
    case 'array':
      return { type: 'array', elementType: toSpark(node.element), containsNull: true };
    case 'map':
      return { type: 'map', keyType: toSpark(node.key), valueType: toSpark(node.value), valueContainsNull: true };
    case 'struct':
      return {
        type: 'struct',
        fields: node.fields.map((f) => ({ name: f.name, type: toSpark(f.type), nullable: true, metadata: {} })),
      };
  }
}

function fromSpark(t: SparkType): TypeNode {
  if (typeof t === 'string') {
    const dec = /^decimal\((\d+),\s*(\d+)\)$/.exec(t);
    if (dec) return { kind: 'decimal', precision: Number(dec[1]), scale: Number(dec[2]) };
    return parseTypeText(FROM_SPARK[t] ?? t);
  }
  if (t.type === 'array') return { kind: 'array', element: fromSpark(t.elementType as SparkType) };
  if (t.type === 'map')
    return { kind: 'map', key: fromSpark(t.keyType as SparkType), value: fromSpark(t.valueType as SparkType) };
  if (t.type === 'struct') {
    const fields = t.fields as { name: string; type: SparkType }[];
    return { kind: 'struct', fields: fields.map((f) => ({ name: f.name, type: fromSpark(f.type) })) };
  }
  throw new InvalidInputError(`unsupported Delta schema type ${JSON.stringify(t)}`);
}

/** DeltaField[] → metaData.schemaString. */
export function toSchemaString(fields: DeltaField[]): string {
  return JSON.stringify({
    type: 'struct',
    fields: fields.map((f) => ({
      name: f.name,
      type: toSpark(parseTypeText(f.type)),
      nullable: f.nullable,
      metadata: f.metadata ?? {},
    })),
  });
}

/** metaData.schemaString → DeltaField[] with Databricks type text. */
export function fromSchemaString(schemaString: string): DeltaField[] {
  const parsed = JSON.parse(schemaString) as {
    fields: { name: string; type: SparkType; nullable?: boolean; metadata?: Record<string, unknown> }[];
  };
  return parsed.fields.map((f) => ({
    name: f.name,
    type: typeText(fromSpark(f.type)),
    nullable: f.nullable !== false,
    metadata: f.metadata ?? {},
  }));
}

/** Databricks type text → DuckDB SQL type. */
export function duckType(text: string): string {
  return duckTypeOf(parseTypeText(text));
}

function duckTypeOf(node: TypeNode): string {
  switch (node.kind) {
    case 'primitive':
      return TO_DUCK[node.name];
    case 'decimal':
      return `DECIMAL(${node.precision},${node.scale})`;
    case 'array':
      return `${duckTypeOf(node.element)}[]`;
    case 'map':
      return `MAP(${duckTypeOf(node.key)}, ${duckTypeOf(node.value)})`;
    case 'struct':
      return `STRUCT(${node.fields.map((f) => `${duckIdent(f.name)} ${duckTypeOf(f.type)}`).join(', ')})`;
  }
}

const FROM_DUCK: Partial<Record<DuckDBTypeId, TypeNode>> = {
  [DuckDBTypeId.BOOLEAN]: { kind: 'primitive', name: 'boolean' },
  [DuckDBTypeId.TINYINT]: { kind: 'primitive', name: 'tinyint' },
  [DuckDBTypeId.SMALLINT]: { kind: 'primitive', name: 'smallint' },
  [DuckDBTypeId.INTEGER]: { kind: 'primitive', name: 'int' },
  [DuckDBTypeId.BIGINT]: { kind: 'primitive', name: 'bigint' },
  [DuckDBTypeId.UTINYINT]: { kind: 'primitive', name: 'smallint' },
  [DuckDBTypeId.USMALLINT]: { kind: 'primitive', name: 'int' },
  [DuckDBTypeId.UINTEGER]: { kind: 'primitive', name: 'bigint' },
  [DuckDBTypeId.UBIGINT]: { kind: 'decimal', precision: 20, scale: 0 },
  [DuckDBTypeId.HUGEINT]: { kind: 'decimal', precision: 38, scale: 0 },
  [DuckDBTypeId.FLOAT]: { kind: 'primitive', name: 'float' },
  [DuckDBTypeId.DOUBLE]: { kind: 'primitive', name: 'double' },
  [DuckDBTypeId.VARCHAR]: { kind: 'primitive', name: 'string' },
  [DuckDBTypeId.UUID]: { kind: 'primitive', name: 'string' },
  [DuckDBTypeId.ENUM]: { kind: 'primitive', name: 'string' },
  [DuckDBTypeId.BLOB]: { kind: 'primitive', name: 'binary' },
  [DuckDBTypeId.DATE]: { kind: 'primitive', name: 'date' },
  [DuckDBTypeId.TIMESTAMP_TZ]: { kind: 'primitive', name: 'timestamp' },
  [DuckDBTypeId.TIMESTAMP]: { kind: 'primitive', name: 'timestamp_ntz' },
  [DuckDBTypeId.TIMESTAMP_MS]: { kind: 'primitive', name: 'timestamp_ntz' },
  [DuckDBTypeId.TIMESTAMP_S]: { kind: 'primitive', name: 'timestamp_ntz' },
  [DuckDBTypeId.TIMESTAMP_NS]: { kind: 'primitive', name: 'timestamp_ntz' },
  [DuckDBTypeId.SQLNULL]: { kind: 'primitive', name: 'string' },
};

/** A DuckDB result column type → Databricks type text (CTAS, CONVERT). */
export function typeFromDuck(t: DuckDBType, column: string): string {
  return typeText(nodeFromDuck(t, column));
}

function nodeFromDuck(t: DuckDBType, column: string): TypeNode {
  const simple = FROM_DUCK[t.typeId];
  if (simple) return simple;
  switch (t.typeId) {
    case DuckDBTypeId.DECIMAL:
      return { kind: 'decimal', precision: t.width, scale: t.scale };
    case DuckDBTypeId.LIST:
    case DuckDBTypeId.ARRAY:
      return { kind: 'array', element: nodeFromDuck(t.valueType, column) };
    case DuckDBTypeId.MAP:
      return { kind: 'map', key: nodeFromDuck(t.keyType, column), value: nodeFromDuck(t.valueType, column) };
    case DuckDBTypeId.STRUCT:
      return {
        kind: 'struct',
        fields: t.entryNames.map((n, i) => ({ name: n, type: nodeFromDuck(t.entryTypes[i], column) })),
      };
    default:
      throw new InvalidInputError(`column '${column}' has type ${t.toString()} which Delta cannot store`);
  }
}

/** True when the type text is a primitive that Delta stats can carry min/max for. */
export function statsKind(text: string): 'number' | 'string' | 'date' | 'boolean' | null {
  const node = parseTypeText(text);
  if (node.kind !== 'primitive') return null;
  if (['bigint', 'int', 'smallint', 'tinyint'].includes(node.name)) return 'number';
  if (node.name === 'string') return 'string';
  if (node.name === 'date') return 'date';
  return null;
}

/** Validates a schema given by a caller: unique names (case-insensitive), known types. */
export function validateSchema(fields: DeltaField[], partitionColumns: string[]): void {
  if (fields.length === 0) throw new InvalidInputError('schema: a table needs at least one column');
  const seen = new Set<string>();
  for (const f of fields) {
    if (!f.name || typeof f.name !== 'string') throw new InvalidInputError('schema: column name is empty');
    const key = f.name.toLowerCase();
    if (seen.has(key)) throw new InvalidInputError(`schema: duplicate column '${f.name}'`);
    seen.add(key);
    parseTypeText(f.type);
  }
  for (const p of partitionColumns) {
    const field = fields.find((f) => f.name === p);
    if (!field) throw new InvalidInputError(`partitionColumns: '${p}' is not a column`);
    if (parseTypeText(field.type).kind !== 'primitive')
      throw new InvalidInputError(`partitionColumns: '${p}' must have a primitive type`);
  }
  if (partitionColumns.length > 0 && partitionColumns.length === fields.length) {
    throw new InvalidInputError('partitionColumns: at least one column must not be a partition column');
  }
}
