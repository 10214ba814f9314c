/**
 * The page chunks `lakeward web` names in the HTML of a page URL, so a fresh tab fetches the opened page's code
 * while it runs the shell's instead of after it. The console's build writes `page-chunks.json` (web/vite.config.ts):
 * each page's route pattern (React Router's, e.g. `/catalogs/:catalog?/:schema?/:table?`) and the files of its
 * chunk (the chunk and the shared chunks it imports, not the shell's). Pure: no I/O here.
 */
export interface PageChunks {
  pages: { path: string; files: string[] }[];
}

/** Whether `pathname` matches a route pattern (`:name` one segment, `:name?` an optional one, `*` the rest). */
export function routeMatches(pattern: string, pathname: string): boolean {
  const source = pattern
    .split('/')
    .filter(Boolean)
    .map((seg) => {
      if (seg === '*') return '(?:/.*)?';
      if (seg.startsWith(':')) return seg.endsWith('?') ? '(?:/[^/]+)?' : '/[^/]+';
      return `/${seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`;
    })
    .join('');
  return new RegExp(`^${source}/?$`).test(pathname);
}

/** The files to preload for a page URL: the first page whose pattern matches (none for an unknown path). */
export function pageFilesFor(chunks: PageChunks, pathname: string): string[] {
  return chunks.pages.find((p) => routeMatches(p.path, pathname))?.files ?? [];
}

const ASSET = /^assets\/[\w.-]+\.js$/;

/** index.html with a `<link rel="modulepreload">` per file before `</head>` (a file not under assets/ is skipped). */
export function withModulePreloads(html: string, files: readonly string[]): string {
  const links = files
    .filter((f) => ASSET.test(f))
    .map((f) => `<link rel="modulepreload" crossorigin href="/${f}">`)
    .join('');
  if (!links || !html.includes('</head>')) return html;
  return html.replace('</head>', `${links}</head>`);
}
