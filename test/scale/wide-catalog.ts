import type { Workspace } from '../../platform/port';

/** A catalog of `schemas` schemas (s0, s1, …) with `tables` small tables each (t0, t1, …), every row distinct. */
export async function seedWideCatalog(
  ws: Workspace,
  catalog: string,
  shape: { schemas: number; tables: number; rows: number },
): Promise<void> {
  await ws.createCatalog({ name: catalog, ifNotExists: true });
  for (let s = 0; s < shape.schemas; s++) {
    const schema = `s${s}`;
    await ws.createSchema({ catalog, name: schema, ifNotExists: true });
    for (let t = 0; t < shape.tables; t++) {
      const ref = { catalog, schema, name: `t${t}` };
      await ws.createTable({
        ref,
        columns: [
          { name: 'id', type: 'bigint' },
          { name: 'label', type: 'string' },
        ],
      });
      await ws.insertRows(
        ref,
        Array.from({ length: shape.rows + t }, (_, i) => ({ id: i, label: `${schema}.t${t}#${i}` })),
      );
    }
  }
}

/** Each table of a catalog as `schema.table` → its rows ordered by id, read through the workspace's SQL. */
export async function catalogContents(ws: Workspace, catalog: string): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const s of await ws.listSchemas(catalog)) {
    for (const t of await ws.listTables(catalog, s.name)) {
      const res = await ws.query(`SELECT id, label FROM \`${catalog}\`.\`${s.name}\`.\`${t.name}\` ORDER BY id`);
      out[`${s.name}.${t.name}`] = res.rows;
    }
  }
  return out;
}
