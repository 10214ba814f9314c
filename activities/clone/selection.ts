import type { CloneOptions } from '../../schemas/clone';

/**
 * Which schemas, tables, views, functions and volumes a clone touches. Pure: the activities list the
 * source and call these.
 */

export interface Selection {
  includeSchemas: string[];
  excludeSchemas: string[];
  includeRegex: RegExp | null;
  excludeRegex: RegExp | null;
}

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * include_objects becomes include_schemas plus an anchored include_tables_regex over the object names,
 * merged with any explicit include_schemas / include_tables_regex (both must then match).
 */
export function selectionFor(options: CloneOptions): Selection {
  const objects = options.include_objects ?? [];
  let includeSchemas = [...(options.include_schemas ?? [])];
  let includeRegex = options.include_tables_regex ? new RegExp(options.include_tables_regex) : null;
  if (objects.length > 0) {
    const objectSchemas = [...new Set(objects.map((o) => o.schema))];
    includeSchemas =
      includeSchemas.length > 0 ? includeSchemas.filter((s) => objectSchemas.includes(s)) : objectSchemas;
    const anchored = new RegExp(`^(?:${[...new Set(objects.map((o) => escapeRegex(o.name)))].join('|')})$`);
    const explicit = includeRegex;
    includeRegex = explicit
      ? new RegExp(`^(?=.*(?:${explicit.source}))(?:${anchored.source.slice(1, -1)})$`)
      : anchored;
  }
  return {
    includeSchemas,
    excludeSchemas: options.exclude_schemas ?? [],
    includeRegex,
    excludeRegex: options.exclude_tables_regex ? new RegExp(options.exclude_tables_regex) : null,
  };
}

export interface SchemaChoice {
  schemas: string[];
  /** include_schemas entries the source does not have. */
  missing: string[];
}

export function chooseSchemas(available: string[], sel: Selection): SchemaChoice {
  const excluded = new Set(sel.excludeSchemas.map((s) => s.toLowerCase()));
  const allowed = available.filter((s) => !excluded.has(s.toLowerCase()));
  if (sel.includeSchemas.length === 0) return { schemas: [...allowed].sort(), missing: [] };
  const wanted = new Set(sel.includeSchemas);
  return {
    schemas: allowed.filter((s) => wanted.has(s)).sort(),
    missing: sel.includeSchemas.filter((s) => !available.includes(s)),
  };
}

/** Table, view and function names: include regex must find a match, exclude regex must not. */
export function nameSelected(name: string, sel: Selection): boolean {
  if (sel.includeRegex && !sel.includeRegex.test(name)) return false;
  if (sel.excludeRegex && sel.excludeRegex.test(name)) return false;
  return true;
}

/** where_clauses lookup: `schema.table`, then `table`, then `*`. */
export function whereClauseFor(schema: string, table: string, clauses: Record<string, string>): string | undefined {
  return clauses[`${schema}.${table}`] ?? clauses[table] ?? clauses['*'];
}

/** order_by_size: unknown sizes sort as 0; ties keep name order so plans are stable. */
export function orderBySize<T extends { name: string; sizeBytes: number | null }>(
  tables: T[],
  order?: 'asc' | 'desc',
): T[] {
  const byName = [...tables].sort((a, b) => a.name.localeCompare(b.name));
  if (!order) return byName;
  const sign = order === 'asc' ? 1 : -1;
  return byName.sort((a, b) => sign * ((a.sizeBytes ?? 0) - (b.sizeBytes ?? 0)));
}

/**
 * The option that leaves `schema.name` out of the clone (reported when a cloned view reads it), or null when
 * the filters keep it. `chosenSchemas` is chooseSchemas' answer for the source.
 */
export function leftOutBy(
  schema: string,
  name: string,
  options: CloneOptions,
  chosenSchemas: string[],
  sel: Selection = selectionFor(options),
): string | null {
  const objects = options.include_objects ?? [];
  const same = (a: string) => a.toLowerCase() === schema.toLowerCase();
  if (!chosenSchemas.some(same)) {
    if ((options.exclude_schemas ?? []).some(same)) return 'exclude_schemas';
    if (objects.length > 0 && !objects.some((o) => o.schema === schema)) return 'include_objects';
    return 'include_schemas';
  }
  if (sel.excludeRegex?.test(name)) return 'exclude_tables_regex';
  if (sel.includeRegex && !sel.includeRegex.test(name))
    return objects.length > 0 && !objects.some((o) => o.name === name) ? 'include_objects' : 'include_tables_regex';
  return null;
}
