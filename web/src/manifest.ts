/**
 * Every page of the console with the API operations it calls ("<method> <OpenAPI path>"). The shell shows a page
 * only when the server has all of them (`GET /api/web/operations`: the OpenAPI document's operations and roles
 * without its schemas); test/web/web-client.test.ts fails when one is missing from the committed document. Pure
 * data: no React here (the page components are bound in pages/index.tsx).
 */
import { GOVERNANCE_PAGES } from './manifest-governance';
import { OPERATIONS_PAGES } from './manifest-operations';

export interface PageEntry {
  id: string;
  path: string;
  title: string;
  /** Shown in the navigation (detail pages such as a job are reached from their list). */
  nav: boolean;
  operations: readonly string[];
  /**
   * The page reads request schemas from the full OpenAPI document (ajv pre-validation through `useConsole().doc`):
   * the shell loads it (about 2 MB) before showing the page. Default: true when the page calls a method other than
   * GET; set false for a page that posts without validating a form (a cancel button).
   */
  schemas?: boolean;
}

const CORE_PAGES = [
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
    schemas: false,
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
    // Reads no request schema (its POSTs are reads: sample, lineage).
    schemas: false,
    operations: [
      'get /api/catalogs',
      'get /api/catalogs/{catalog}/schemas',
      'get /api/catalogs/{catalog}/schemas/{schema}/tables',
      'get /api/tables/{full_name}',
      'post /api/sample',
      'post /api/lineage',
      'get /api/governance/dqx/checks',
      'get /api/governance/dqx/runs',
      'get /api/governance/odcs/{id}',
      'get /api/governance/odcs/{id}/validations',
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
    schemas: false,
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
    schemas: false,
    operations: ['get /api/notebooks', 'post /api/notebooks', 'post /api/notebooks/import'],
  },
  {
    id: 'notebook',
    path: '/notebooks/:id',
    title: 'Notebook',
    nav: false,
    schemas: false,
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

/** Every page, in navigation order (the governance and operations areas have files of their own). */
export const PAGES = [...CORE_PAGES, ...GOVERNANCE_PAGES, ...OPERATIONS_PAGES] as const;

export type PageId = (typeof PAGES)[number]['id'];

/** Pages whose operations the server has (`operations`: "<method> <OpenAPI path>" strings). */
export function availablePages(operations: ReadonlySet<string>): PageEntry[] {
  return PAGES.filter((p) => missingOperations(p, operations).length === 0);
}

export function missingOperations(page: PageEntry, operations: ReadonlySet<string>): string[] {
  return page.operations.filter((op) => !operations.has(op));
}

/** The operations of an OpenAPI document, as the manifest names them. */
export function operationsOfDocument(doc: { paths?: Record<string, Record<string, unknown>> }): Set<string> {
  return new Set(
    Object.entries(doc.paths ?? {}).flatMap(([path, ops]) => Object.keys(ops).map((method) => `${method} ${path}`)),
  );
}

/** Whether the shell loads the full OpenAPI document before showing `page` (see `PageEntry.schemas`). */
export function needsSchemas(page: PageEntry): boolean {
  return page.schemas ?? page.operations.some((op) => !op.startsWith('get '));
}
