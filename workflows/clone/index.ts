/** The clone workflows, for the worker bundle (workflows/index.ts re-exports these). */
export { cloneCatalogWorkflow } from './clone-catalog';
export { cloneSchemaWorkflow } from './clone-schema';
