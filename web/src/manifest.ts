/**
 * Every page of the console with the API operations it calls ("<method> <OpenAPI path>"). The shell shows a page
 * only when the server has all of them (`GET /api/web/operations`: the OpenAPI document's operations and roles
 * without its schemas); test/web/web-client.test.ts fails when one is missing from the committed document. Pure
 * data: no React here (the page components are bound in pages/index.tsx).
 */
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
  {
    id: 'quality',
    path: '/quality',
    title: 'Data quality',
    nav: true,
    operations: ['get /api/governance/dqx/dashboard'],
  },
  {
    id: 'quality-checks',
    path: '/quality/checks',
    title: 'Data-quality checks',
    nav: false,
    operations: [
      'get /api/governance/dqx/check-functions',
      'get /api/governance/dqx/checks',
      'post /api/governance/dqx/checks',
      'post /api/governance/dqx/checks/{id}/toggle',
      'delete /api/governance/dqx/checks/{id}',
      'get /api/tables/{full_name}',
    ],
  },
  {
    id: 'quality-runs',
    path: '/quality/runs',
    title: 'Data-quality runs',
    nav: false,
    operations: ['get /api/governance/dqx/runs', 'post /api/governance/dqx/run'],
  },
  {
    id: 'quality-run',
    path: '/quality/runs/:runId',
    title: 'Data-quality run',
    nav: false,
    operations: ['get /api/governance/dqx/runs/{run_id}', 'get /api/data-quality/failure-samples'],
  },
  {
    id: 'quality-coverage',
    path: '/quality/coverage/:catalog?',
    title: 'Check coverage',
    nav: false,
    operations: ['get /api/catalogs', 'get /api/data-quality/coverage/{catalog}'],
  },
  {
    id: 'quality-profiles',
    path: '/quality/profiles',
    title: 'Profiles',
    nav: false,
    operations: ['get /api/governance/dqx/profiles', 'post /api/governance/dqx/profile'],
  },
  {
    id: 'quality-anomalies',
    path: '/quality/anomalies',
    title: 'Anomalies',
    nav: false,
    operations: [
      'get /api/data-quality/anomalies',
      'post /api/data-quality/anomalies/{id}/acknowledge',
      'post /api/data-quality/anomalies/{id}/resolve',
      'post /api/data-quality/anomalies/{id}/false-positive',
    ],
  },
  {
    id: 'contracts',
    path: '/contracts',
    title: 'Contracts',
    nav: true,
    operations: ['get /api/governance/odcs', 'post /api/governance/odcs/generate'],
  },
  {
    id: 'contract',
    path: '/contracts/:name',
    title: 'Contract',
    nav: false,
    operations: [
      'get /api/governance/odcs/{id}',
      'get /api/governance/odcs/{id}/validations',
      'post /api/governance/odcs/validate/{id}',
      'post /api/governance/odcs/{id}/publish',
      'post /api/governance/odcs/{id}/attach',
    ],
  },
  {
    id: 'compliance',
    path: '/compliance/:framework?',
    title: 'Compliance',
    nav: true,
    operations: [
      'get /api/compliance/frameworks',
      'post /api/compliance/frameworks/{framework_name}/assess',
      'get /api/compliance/frameworks/{framework_name}/gaps',
      'get /api/compliance/frameworks/{framework_name}/trend',
    ],
  },
  {
    id: 'glossary',
    path: '/glossary',
    title: 'Glossary',
    nav: true,
    operations: ['get /api/governance/glossary', 'post /api/governance/glossary'],
  },
  {
    id: 'glossary-term',
    path: '/glossary/:termId',
    title: 'Glossary term',
    nav: false,
    operations: [
      'get /api/governance/glossary/{term_id}',
      'post /api/governance/glossary/{term_id}/approve',
      'post /api/governance/glossary/{term_id}/deprecate',
      'post /api/governance/glossary/{term_id}/links',
    ],
  },
  {
    id: 'policies',
    path: '/policies',
    title: 'Policies',
    nav: true,
    operations: ['get /api/rbac/policies', 'post /api/rbac/policies', 'delete /api/rbac/policies/{name}'],
  },
  {
    id: 'compare',
    path: '/compare',
    title: 'Compare',
    nav: true,
    schemas: false,
    operations: [
      'get /api/catalogs',
      'post /api/diff',
      'post /api/compare',
      'post /api/sample/compare',
      'post /api/incremental/check',
      'post /api/incremental/sync',
    ],
  },
  {
    id: 'schedules',
    path: '/schedules',
    title: 'Schedules',
    nav: true,
    schemas: false,
    operations: [
      'get /api/schedule',
      'post /api/schedule/{scheduleId}/pause',
      'post /api/schedule/{scheduleId}/resume',
      'post /api/schedule/{scheduleId}/trigger',
      'get /api/schedule/{scheduleId}/runs',
    ],
  },
  {
    id: 'mdm-stewardship',
    path: '/mdm/stewardship',
    title: 'Stewardship',
    nav: true,
    schemas: false,
    operations: [
      'get /api/mdm/stewardship',
      'post /api/mdm/stewardship/{case_id}/resolve',
      'post /api/mdm/stewardship/{case_id}/reassign',
    ],
  },
  {
    id: 'cost',
    path: '/cost',
    title: 'Cost',
    nav: true,
    schemas: false,
    operations: [
      'get /api/infrastructure/warehouses',
      'post /api/infrastructure/warehouses/{id}/start',
      'post /api/infrastructure/warehouses/{id}/stop',
      'get /api/finops/budgets',
      'post /api/finops/budgets',
      'patch /api/finops/budgets/{id}',
      'delete /api/finops/budgets/{id}',
      'post /api/finops/budgets/evaluate',
      'get /api/finops/recommendations',
      'post /api/finops/recommendations/refresh',
      'post /api/finops/recommendations/{id}/apply',
      'post /api/finops/recommendations/{id}/dismiss',
      'post /api/finops/recommendations/{id}/snooze',
    ],
  },
  {
    id: 'automation',
    path: '/automation',
    title: 'Automation',
    nav: true,
    schemas: false,
    operations: [
      'get /api/pipeline/pipelines',
      'get /api/pipeline/templates',
      'post /api/pipeline/templates/{template_name}/create',
      'post /api/pipeline/pipelines/{pipeline_id}/run',
      'get /api/pipeline/runs',
      'post /api/pipeline/runs/{run_id}/cancel',
      'get /api/playbooks',
      'get /api/playbooks/templates',
      'post /api/playbooks',
      'post /api/playbooks/{playbook_id}/execute',
      'get /api/playbooks/{playbook_id}/history',
    ],
  },
] as const satisfies readonly PageEntry[];

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
