import type { BaseEntry, TableEntry } from './metastore/types';
import { listConstraintsOf } from './workspace-constraints';
import type { LocalContext } from './workspace-context';
import { describeTable } from './workspace-describe';

/** information_schema rows contributed by one table or view, and the grant / tag row shapes shared by all levels. */
export type Row = Record<string, unknown>;

export function privilegeRows(e: BaseEntry, base: Row): Row[] {
  return Object.entries(e.grants).flatMap(([grantee, privs]) =>
    privs.map((p) => ({
      grantor: e.owner,
      grantee,
      privilege_type: p,
      is_grantable: 'NO',
      inherited_from: 'NONE',
      ...base,
    })),
  );
}
export function tagRows(tags: Record<string, string>, base: Row): Row[] {
  return Object.entries(tags).map(([tag_name, tag_value]) => ({ ...base, tag_name, tag_value }));
}
const tableBase = (t: TableEntry) => ({ table_catalog: t.catalog, table_schema: t.schema, table_name: t.name });
const tagBase = (t: TableEntry) => ({ catalog_name: t.catalog, schema_name: t.schema, table_name: t.name });

export async function tableRows(ctx: LocalContext, t: TableEntry, view: string): Promise<Row[]> {
  const base = tableBase(t);
  switch (view) {
    case 'tables':
      return [
        {
          ...base,
          table_type: t.tableType,
          is_insertable_into: t.kind === 'TABLE' ? 'YES' : 'NO',
          table_owner: t.owner,
          comment: t.comment,
          created: t.createdAt,
          created_by: t.owner,
          last_altered: t.lastAltered,
          data_source_format: t.format,
          storage_path: t.location,
        },
      ];
    case 'views':
      return t.kind === 'VIEW'
        ? [{ ...base, view_definition: t.definition, is_updatable: 'NO', is_insertable_into: 'NO' }]
        : [];
    case 'table_privileges':
      return privilegeRows(t, base);
    case 'table_tags':
      return tagRows(t.tags, tagBase(t));
    case 'column_tags':
      return Object.entries(t.columnTags).flatMap(([column_name, tags]) =>
        tagRows(tags, { ...tagBase(t), column_name }),
      );
    case 'row_filters':
      return t.rowFilter
        ? [{ ...base, filter_name: t.rowFilter.functionName, target_columns: t.rowFilter.columns.join(',') }]
        : [];
    case 'column_masks':
      return t.columnMasks.map((m) => ({
        ...base,
        column_name: m.column,
        mask_name: m.functionName,
        using_columns: m.usingColumns.join(','),
      }));
    default:
      break;
  }
  if (view === 'columns') {
    const parts = t.partitionColumns ?? [];
    const columns = t.kind === 'TABLE' ? await ctx.columns(t) : (await describeTable(ctx, t)).columns;
    return columns.map((c) => ({
      ...base,
      column_name: c.name,
      ordinal_position: c.position,
      is_nullable: c.nullable ? 'YES' : 'NO',
      full_data_type: c.type,
      data_type: c.type.replace(/[<(].*$/, '').toUpperCase(),
      comment: c.comment,
      partition_index: parts.includes(c.name) ? parts.indexOf(c.name) : null,
    }));
  }
  if (t.kind !== 'TABLE') return [];
  const constraints = await listConstraintsOf(ctx, t);
  if (view === 'check_constraints')
    return constraints.map((c) => ({
      constraint_catalog: t.catalog,
      constraint_schema: t.schema,
      constraint_name: c.name,
      check_clause: c.expression,
    }));
  return constraints.map((c) => ({
    constraint_catalog: t.catalog,
    constraint_schema: t.schema,
    constraint_name: c.name,
    ...base,
    constraint_type: 'CHECK',
    is_deferrable: 'NO',
    initially_deferred: 'NO',
    enforced: 'YES',
    comment: null,
  }));
}
