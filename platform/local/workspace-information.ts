import { assertInformationSchemaView, informationSchemaValues } from './sql/information-schema';
import type { LocalContext } from './workspace-context';
import { privilegeRows, tableRows, tagRows, type Row } from './workspace-information-tables';

/** Rows of `<catalog>.information_schema.<view>` (or system.information_schema for all catalogs), from the metastore. */

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
