import type { Workspace } from '../../platform/port';
import type { Db } from '../../store/db';
import { listStorageSnapshots, recordStorageSnapshot } from '../../store/finops/repo';
import { SYSTEM_CATALOG } from './logic/system-tables';

/**
 * Today's storage snapshot: the exact bytes of every table's current files (the storage domain's metrics), taken
 * once per day (a day that has one is left alone). The system catalog itself is not counted.
 */
export async function snapshotStorage(ws: Workspace, db: Db, now: Date): Promise<number> {
  const day = now.toISOString().slice(0, 10);
  if ((await listStorageSnapshots(db, day)).some((s) => s.usageDate === day)) return 0;
  const rows: { tableName: string; bytes: number }[] = [];
  for (const c of await ws.listCatalogs()) {
    if (c.name === SYSTEM_CATALOG) continue;
    for (const s of await ws.listSchemas(c.name))
      for (const t of await ws.listTables(c.name, s.name)) {
        const ref = { catalog: c.name, schema: s.name, name: t.name };
        const m = await ws.storageMetrics(ref).catch(() => null);
        if (m) rows.push({ tableName: `${c.name}.${s.name}.${t.name}`, bytes: m.totalBytes });
      }
  }
  await recordStorageSnapshot(db, day, rows);
  return rows.length;
}
