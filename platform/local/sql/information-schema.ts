import { InvalidInputError } from '../../errors';
import { duckIdent, duckString } from '../duck';

/** Column lists of the Unity Catalog information_schema views the local workspace serves. */
export const INFORMATION_SCHEMA: Record<string, string[]> = {
  catalogs: ['catalog_name', 'catalog_owner', 'comment', 'created', 'created_by', 'last_altered'],
  schemata: ['catalog_name', 'schema_name', 'schema_owner', 'comment', 'created', 'last_altered'],
  tables: [
    'table_catalog',
    'table_schema',
    'table_name',
    'table_type',
    'is_insertable_into',
    'table_owner',
    'comment',
    'created',
    'created_by',
    'last_altered',
    'data_source_format',
    'storage_path',
  ],
  columns: [
    'table_catalog',
    'table_schema',
    'table_name',
    'column_name',
    'ordinal_position',
    'is_nullable',
    'full_data_type',
    'data_type',
    'comment',
    'partition_index',
  ],
  views: ['table_catalog', 'table_schema', 'table_name', 'view_definition', 'is_updatable', 'is_insertable_into'],
  routines: [
    'specific_catalog',
    'specific_schema',
    'specific_name',
    'routine_catalog',
    'routine_schema',
    'routine_name',
    'routine_type',
    'data_type',
    'full_data_type',
    'routine_body',
    'routine_definition',
    'routine_owner',
    'comment',
    'created',
  ],
  parameters: [
    'specific_catalog',
    'specific_schema',
    'specific_name',
    'ordinal_position',
    'parameter_name',
    'data_type',
  ],
  volumes: [
    'volume_catalog',
    'volume_schema',
    'volume_name',
    'volume_type',
    'volume_owner',
    'comment',
    'created',
    'last_altered',
    'storage_location',
  ],
  catalog_privileges: ['grantor', 'grantee', 'catalog_name', 'privilege_type', 'is_grantable', 'inherited_from'],
  schema_privileges: [
    'grantor',
    'grantee',
    'catalog_name',
    'schema_name',
    'privilege_type',
    'is_grantable',
    'inherited_from',
  ],
  table_privileges: [
    'grantor',
    'grantee',
    'table_catalog',
    'table_schema',
    'table_name',
    'privilege_type',
    'is_grantable',
    'inherited_from',
  ],
  catalog_tags: ['catalog_name', 'tag_name', 'tag_value'],
  schema_tags: ['catalog_name', 'schema_name', 'tag_name', 'tag_value'],
  table_tags: ['catalog_name', 'schema_name', 'table_name', 'tag_name', 'tag_value'],
  column_tags: ['catalog_name', 'schema_name', 'table_name', 'column_name', 'tag_name', 'tag_value'],
  volume_tags: ['catalog_name', 'schema_name', 'volume_name', 'tag_name', 'tag_value'],
  table_constraints: [
    'constraint_catalog',
    'constraint_schema',
    'constraint_name',
    'table_catalog',
    'table_schema',
    'table_name',
    'constraint_type',
    'is_deferrable',
    'initially_deferred',
    'enforced',
    'comment',
  ],
  check_constraints: ['constraint_catalog', 'constraint_schema', 'constraint_name', 'check_clause'],
  row_filters: ['table_catalog', 'table_schema', 'table_name', 'filter_name', 'target_columns'],
  column_masks: ['table_catalog', 'table_schema', 'table_name', 'column_name', 'mask_name', 'using_columns'],
};

const BIGINT_COLUMNS = new Set(['ordinal_position', 'partition_index']);

export function assertInformationSchemaView(view: string): string[] {
  const cols = INFORMATION_SCHEMA[view];
  if (!cols) {
    throw new InvalidInputError(
      `information_schema.${view} is not available locally; known views: ${Object.keys(INFORMATION_SCHEMA).join(', ')}`,
    );
  }
  return cols;
}

function literal(v: unknown): string {
  if (v === null || v === undefined) return 'NULL';
  if (typeof v === 'number') return String(v);
  return duckString(String(v));
}

/** A typed table expression over rows (VALUES inline, so it also works on the Delta engine's connections). */
export function informationSchemaValues(view: string, rows: Record<string, unknown>[]): string {
  const cols = assertInformationSchemaView(view);
  const typed = cols.map(
    (c, i) =>
      `CAST(${rows.length ? `c${i}` : 'NULL'} AS ${BIGINT_COLUMNS.has(c) ? 'BIGINT' : 'VARCHAR'}) AS ${duckIdent(c)}`,
  );
  if (rows.length === 0) return `(SELECT ${typed.join(', ')} WHERE false)`;
  const values = rows.map((r) => `(${cols.map((c) => literal(r[c])).join(', ')})`).join(',\n');
  return `(SELECT ${typed.join(', ')} FROM (VALUES ${values}) AS _v(${cols.map((_, i) => `c${i}`).join(', ')}))`;
}
