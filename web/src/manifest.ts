/**
 * Every page of the console with the API operations it calls ("<method> <OpenAPI path>"). The shell shows a page
 * only when the server's OpenAPI document has all of them; test/web/web-client.test.ts fails when one is missing
 * from the committed document. Pure data: no React here (the page components are bound in pages/index.tsx).
 */
export interface PageEntry {
  id: string;
  path: string;
  title: string;
  /** Shown in the navigation (detail pages such as a job are reached from their list). */
  nav: boolean;
  operations: readonly string[];
}

export const PAGES = [
  {
    id: 'dashboard',
    path: '/',
    title: 'Dashboard',
    nav: true,
    operations: ['get /api/dashboard/stats', 'get /api/jobs', 'get /api/catalog-health', 'get /api/notifications'],
  },
  {
    id: 'jobs',
    path: '/jobs',
    title: 'Jobs',
    nav: true,
    operations: ['get /api/jobs'],
  },
  {
    id: 'job',
    path: '/jobs/:jobId',
    title: 'Job',
    nav: false,
    operations: [
      'get /api/jobs/{jobId}',
      'get /api/clone/{jobId}',
      'post /api/jobs/{jobId}/cancel',
      'post /api/rollback',
    ],
  },
  {
    id: 'clone',
    path: '/clone',
    title: 'Clone',
    nav: true,
    operations: [
      'get /api/catalogs',
      'get /api/templates',
      'get /api/templates/{name}',
      'post /api/estimate',
      'post /api/clone',
      'get /api/jobs/{jobId}',
    ],
  },
  {
    id: 'catalogs',
    path: '/catalogs/:catalog?/:schema?/:table?',
    title: 'Catalogs',
    nav: true,
    operations: [
      'get /api/catalogs',
      'get /api/catalogs/{catalog}/schemas',
      'get /api/catalogs/{catalog}/schemas/{schema}/tables',
      'get /api/tables/{full_name}',
    ],
  },
  {
    id: 'convert',
    path: '/convert',
    title: 'Convert',
    nav: true,
    operations: ['post /api/convert-to-delta'],
  },
  {
    id: 'workbench',
    path: '/workbench',
    title: 'Workbench',
    nav: true,
    operations: [
      'get /api/catalogs',
      'post /api/sql/statements',
      'get /api/sql/statements/{statementId}',
      'get /api/sql/history',
    ],
  },
  {
    id: 'notebooks',
    path: '/notebooks',
    title: 'Notebooks',
    nav: true,
    operations: ['get /api/notebooks', 'post /api/notebooks'],
  },
  {
    id: 'notebook',
    path: '/notebooks/:id',
    title: 'Notebook',
    nav: false,
    operations: [
      'get /api/catalogs',
      'get /api/notebooks/{id}',
      'put /api/notebooks/{id}',
      'post /api/notebooks/{id}/undo',
      'post /api/notebooks/{id}/redo',
      'post /api/notebooks/{id}/cells/{cellId}/run',
      'post /api/notebooks/{id}/run',
      'post /api/notebooks/{id}/export',
      'get /api/jobs/{jobId}',
    ],
  },
] as const satisfies readonly PageEntry[];

export type PageId = (typeof PAGES)[number]['id'];

/** Pages whose operations all exist in `doc` (the server's OpenAPI document). */
export function availablePages(doc: { paths?: Record<string, Record<string, unknown>> }): PageEntry[] {
  return PAGES.filter((p) => missingOperations(p, doc).length === 0);
}

export function missingOperations(page: PageEntry, doc: { paths?: Record<string, Record<string, unknown>> }): string[] {
  return page.operations.filter((op) => {
    const [method, path] = op.split(' ');
    return !doc.paths?.[path]?.[method];
  });
}
