import type { Action } from './actions';
import type { WriteSpec } from './write-files';
import { writeDataFiles } from './write-files';

/** Folder of change data files (PROTOCOL.md "Add CDC File"); `_`-prefixed so plain readers skip it. */
export const CHANGE_DATA_DIR = '_change_data';

/** Writes rows carrying a `_change_type` column as CDC files and returns their `cdc` actions. */
export async function writeChangeFiles(tableDir: string, selectSql: string, spec: WriteSpec): Promise<Action[]> {
  const files = await writeDataFiles(tableDir, selectSql, { ...spec, subdir: CHANGE_DATA_DIR });
  return files.map((f) => ({
    cdc: { path: f.add.path, partitionValues: f.add.partitionValues, size: f.add.size, dataChange: false },
  }));
}
