/**
 * The catalog tree as the rows a screen shows: the catalogs, the opened catalog's schemas under it and the opened
 * schema's tables under that, each with its ARIA tree position (level, set size, position in set). Pure: the
 * explorer virtualises these rows, so 10,000 tables cost only the rows in view.
 */
export interface TreeRow {
  /** Stable key and the row's URL inside the console. */
  href: string;
  name: string;
  level: 1 | 2 | 3;
  setSize: number;
  posInSet: number;
  /** Catalogs and schemas open and close; tables are leaves. */
  expanded?: boolean;
  /** A table's type (lower case), shown beside its name. */
  kind?: string;
  /** The row the URL names. */
  current: boolean;
}

export interface TreeInput {
  catalogs: readonly { name: string }[];
  schemas: readonly { name: string }[];
  tables: readonly { name: string; type: string }[];
  catalog?: string;
  schema?: string;
  table?: string;
  filter: string;
}

const enc = encodeURIComponent;

export function treeRows(input: TreeInput): TreeRow[] {
  const f = input.filter.toLowerCase();
  const match = (name: string) => !f || name.toLowerCase().includes(f);
  const { catalog, schema, table } = input;
  const rows: TreeRow[] = [];
  const cats = input.catalogs.filter((c) => c.name === catalog || match(c.name));
  cats.forEach((c, ci) => {
    const open = c.name === catalog;
    const cHref = `/catalogs/${enc(c.name)}`;
    rows.push({
      href: cHref,
      name: c.name,
      level: 1,
      setSize: cats.length,
      posInSet: ci + 1,
      expanded: open,
      current: open && !schema,
    });
    if (!open) return;
    const schs = input.schemas.filter((s) => s.name === schema || match(s.name));
    schs.forEach((s, si) => {
      const sOpen = s.name === schema;
      const sHref = `${cHref}/${enc(s.name)}`;
      rows.push({
        href: sHref,
        name: s.name,
        level: 2,
        setSize: schs.length,
        posInSet: si + 1,
        expanded: sOpen,
        current: sOpen && !table,
      });
      if (!sOpen) return;
      const tabs = input.tables.filter((t) => t.name === table || match(t.name));
      tabs.forEach((t, ti) =>
        rows.push({
          href: `${sHref}/${enc(t.name)}`,
          name: t.name,
          level: 3,
          setSize: tabs.length,
          posInSet: ti + 1,
          kind: t.type.toLowerCase(),
          current: t.name === table,
        }),
      );
    });
  });
  return rows;
}

/** The row a key moves focus to from `from` (ARIA tree keys), or undefined when the key is not a move. */
export function moveFocus(rows: readonly TreeRow[], from: number, key: string): number | undefined {
  const last = rows.length - 1;
  switch (key) {
    case 'ArrowDown':
      return Math.min(from + 1, last);
    case 'ArrowUp':
      return Math.max(from - 1, 0);
    case 'Home':
      return 0;
    case 'End':
      return last;
    case 'ArrowLeft': {
      // To the parent (a closed node or a leaf); an open node closes instead (the caller navigates to its parent).
      const level = rows[from]?.level ?? 1;
      for (let i = from - 1; i >= 0; i--) if (rows[i].level < level) return i;
      return undefined;
    }
    case 'ArrowRight':
      // An open node's first child.
      return rows[from]?.expanded && rows[from + 1]?.level === rows[from].level + 1 ? from + 1 : undefined;
    default:
      return undefined;
  }
}

/** Type-ahead: the next row after `from` (wrapping) whose name starts with `prefix`. */
export function typeAhead(rows: readonly TreeRow[], from: number, prefix: string): number | undefined {
  const p = prefix.toLowerCase();
  for (let k = 1; k <= rows.length; k++) {
    const i = (from + k) % rows.length;
    if (rows[i].name.toLowerCase().startsWith(p)) return i;
  }
  return undefined;
}

/** The URL of a row's parent (a closed catalog or schema's level up). */
export function parentHref(href: string): string {
  return href.slice(0, href.lastIndexOf('/')) || '/catalogs';
}
