import { InvalidInputError } from '../../errors';
import type { TableRef } from '../../types';
import { ident, lit, tableName } from './quote';

/** `/Volumes/<catalog>/<schema>/<volume>/<path>/` for a folder inside a volume (no `..`, no empty parts). */
export function volumeFolderPath(volume: TableRef, path: string): string {
  const parts = path.split('/').filter((p) => p !== '');
  if (parts.length === 0 || parts.some((p) => p === '..' || p === '.'))
    throw new InvalidInputError(`invalid volume folder ${JSON.stringify(path)}`);
  return `/Volumes/${[volume.catalog, volume.schema, volume.name, ...parts].join('/')}/`;
}

/** Type text that may reach SQL: letters, digits, `_`, `<>`, `,`, `()`, `:` and spaces (`map<string,string>`). */
function columnType(type: string): string {
  if (!/^[A-Za-z][A-Za-z0-9_<>,():\s]*$/.test(type))
    throw new InvalidInputError(`invalid column type ${JSON.stringify(type)}`);
  return type;
}

/** One column read from JSON and cast: maps and structs arrive as structs, so they go through JSON text. */
function selectColumn(c: { name: string; type: string }): string {
  const type = columnType(c.type);
  const expr = /^(map|array|struct)\s*</i.test(type)
    ? `from_json(to_json(${ident(c.name)}), ${lit(type)})`
    : `CAST(${ident(c.name)} AS ${type.toUpperCase()})`;
  return `${expr} AS ${ident(c.name)}`;
}

/**
 * COPY INTO a table from newline-delimited JSON files in a volume folder: columns matched by name, the table's
 * schema kept (`mergeSchema` false), and `force` so a folder is loaded even if files of that name were loaded
 * before (each load uses its own folder).
 */
export function copyIntoJsonSql(
  ref: TableRef,
  volume: TableRef,
  path: string,
  columns?: { name: string; type: string }[],
): string {
  const from = lit(volumeFolderPath(volume, path));
  return [
    `COPY INTO ${tableName(ref)}`,
    columns?.length ? `FROM (SELECT ${columns.map(selectColumn).join(', ')} FROM ${from})` : `FROM ${from}`,
    'FILEFORMAT = JSON',
    "FORMAT_OPTIONS ('multiLine' = 'false')",
    "COPY_OPTIONS ('force' = 'true', 'mergeSchema' = 'false')",
  ].join('\n');
}
