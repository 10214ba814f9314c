import type { BaseEntry, TableEntry } from './metastore/types';
import { assertInformationSchemaView, informationSchemaValues } from './sql/information-schema';
import type { LocalContext } from './workspace-context';
import { listConstraintsOf } from './workspace-constraints';

/** Rows of `<catalog>.information_schema.<view>` (or system.information_schema for all catalogs), from the metastore. */
type Row = Record<string, unknown>;

async function walk(ctx: LocalContext, catalog: string | null) {
  const catalogs = catalog ? [catalog] : await ctx.store.listCatalogNames();
  const out = [];
  for (const cat of catalogs) {
    const catEntry = await ctx.store.getCatalog(cat);
    for (const sch of await ctx.store.listSchemaNames(cat)) {
      out.push({ cat, catEntry, sch, schEntry: await ctx.store.getSchema(cat, sch) });
    }
  }
  return out;
}

function privilegeRows(e: BaseEntry, base: Row): Row[] {
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
function tagRows(tags: Record<string, string>, base: Row): Row[] {
  return Object.entries(tags).map(([tag_name, tag_value]) => ({ ...base, tag_name, tag_value }));
}
const tableBase = (t: TableEntry) => ({ table_catalog: t.catalog, table_schema: t.schema, table_name: t.name });
const tagBase = (t: TableEntry) => ({ catalog_name: t.catalog, schema_name: t.schema, table_name: t.name });

export async function informationSchemaSql(ctx: LocalContext, catalog: string | null, view: string): Promise<string> {
  assertInformationSchemaView(view);
  const rows: Row[] = [];
  const levels = await walk(ctx, catalog);
  const seenCatalogs = new Set<string>();
  for (const { cat, catEntry, sch, schEntry } of levels) {
    if (!seenCatalogs.has(cat)) {
      seenCatalogs.add(cat);
      if (view === 'catalogs')
        rows.push({
          catalog_name: cat,
          catalog_owner: catEntry.owner,
          comment: catEntry.comment,
          created: catEntry.createdAt,
          created_by: catEntry.owner,
          last_altered: catEntry.lastAltered,
        });
      if (view === 'catalog_privileges') rows.push(...privilegeRows(catEntry, { catalog_name: cat }));
      if (view === 'catalog_tags') rows.push(...tagRows(catEntry.tags, { catalog_name: cat }));
    }
    if (view === 'schemata')
      rows.push({
        catalog_name: cat,
        schema_name: sch,
        schema_owner: schEntry.owner,
        comment: schEntry.comment,
        created: schEntry.createdAt,
        last_altered: schEntry.lastAltered,
      });
    if (view === 'schema_privileges') rows.push(...privilegeRows(schEntry, { catalog_name: cat, schema_name: sch }));
    if (view === 'schema_tags') rows.push(...tagRows(schEntry.tags, { catalog_name: cat, schema_name: sch }));
    if (['routines', 'parameters'].includes(view)) {
      for (const f of await ctx.store.listEntries('functions', cat, sch)) {
        const spec = { specific_catalog: cat, specific_schema: sch, specific_name: f.name };
        if (view === 'routines') {
          rows.push({
            ...spec,
            routine_catalog: cat,
            routine_schema: sch,
            routine_name: f.name,
            routine_type: 'FUNCTION',
            data_type: f.returnType.toUpperCase(),
            full_data_type: f.returnType.toLowerCase(),
            routine_body: 'SQL',
            routine_definition: f.body,
            routine_owner: f.owner,
            comment: f.comment,
            created: f.createdAt,
          });
        } else {
          f.parameters
            .split(',')
            .map((p) => p.trim())
            .filter(Boolean)
            .forEach((p, i) => {
              const [name, ...type] = p.split(/\s+/);
              rows.push({
                ...spec,
                ordinal_position: i + 1,
                parameter_name: name.replace(/`/g, ''),
                data_type: type.join(' ').toUpperCase(),
              });
            });
        }
      }
    }
    if (['volumes', 'volume_tags'].includes(view)) {
      for (const v of await ctx.store.listEntries('volumes', cat, sch)) {
        if (view === 'volumes')
          rows.push({
            volume_catalog: cat,
            volume_schema: sch,
            volume_name: v.name,
            volume_type: v.volumeType,
            volume_owner: v.owner,
            comment: v.comment,
            created: v.createdAt,
            last_altered: v.lastAltered,
            storage_location: v.storageLocation,
          });
        else rows.push(...tagRows(v.tags, { catalog_name: cat, schema_name: sch, volume_name: v.name }));
      }
    }
    if (
      ![
        'tables',
        'columns',
        'views',
        'table_privileges',
        'table_tags',
        'column_tags',
        'table_constraints',
        'check_constraints',
        'row_filters',
        'column_masks',
      ].includes(view)
    )
      continue;
    for (const t of await ctx.store.listEntries('tables', cat, sch)) rows.push(...(await tableRows(ctx, t, view)));
  }
  return informationSchemaValues(view, rows);
}

async function tableRows(ctx: LocalContext, t: TableEntry, view: string): Promise<Row[]> {
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
  if (t.kind !== 'TABLE') return [];
  if (view === 'columns') {
    const parts = t.partitionColumns ?? [];
    return (await ctx.columns(t)).map((c) => ({
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
