import { InvalidInputError } from '../../errors';
import type { TableRef } from '../../types';
import { lit, tableName } from './quote';

/** `/Volumes/<catalog>/<schema>/<volume>/<path>/` for a folder inside a volume (no `..`, no empty parts). */
export function volumeFolderPath(volume: TableRef, path: string): string {
  const parts = path.split('/').filter((p) => p !== '');
  if (parts.length === 0 || parts.some((p) => p === '..' || p === '.'))
    throw new InvalidInputError(`invalid volume folder ${JSON.stringify(path)}`);
  return `/Volumes/${[volume.catalog, volume.schema, volume.name, ...parts].join('/')}/`;
}

/**
 * COPY INTO a table from newline-delimited JSON files in a volume folder: columns matched by name, the table's
 * schema kept (`mergeSchema` false), and `force` so a folder is loaded even if files of that name were loaded
 * before (each load uses its own folder).
 */
export function copyIntoJsonSql(ref: TableRef, volume: TableRef, path: string): string {
  return [
    `COPY INTO ${tableName(ref)}`,
    `FROM ${lit(volumeFolderPath(volume, path))}`,
    'FILEFORMAT = JSON',
    "FORMAT_OPTIONS ('multiLine' = 'false')",
    "COPY_OPTIONS ('force' = 'true', 'mergeSchema' = 'false')",
  ].join('\n');
}
