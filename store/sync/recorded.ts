import { tableStatesForSchema } from '../clone/clone-state';
import type { Db } from '../db';

/**
 * The source version recorded at each table's last clone into one destination schema, for tables whose
 * recorded source is this source workspace and catalog (a table last cloned from elsewhere has none).
 */
export async function recordedSourceVersions(
  db: Db,
  key: {
    destWorkspace: string;
    destCatalog: string;
    schemaName: string;
    sourceWorkspace: string;
    sourceCatalog: string;
  },
): Promise<Map<string, number | null>> {
  const states = await tableStatesForSchema(db, key);
  const out = new Map<string, number | null>();
  for (const [name, s] of states)
    if (s.sourceWorkspace === key.sourceWorkspace && s.sourceCatalog === key.sourceCatalog)
      out.set(name, s.sourceVersion);
  return out;
}
