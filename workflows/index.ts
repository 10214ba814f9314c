/**
 * The workflow bundle entry: every workflow the worker runs is re-exported here (one line per module).
 * `npm run build` bundles this file into dist/workflow-bundle.js; `lakeward dev` bundles it from source.
 */
export * from './hello';
export * from './clone';
export * from './jobs/queue-workflow';
export * from './clone/rollback-workflow';
export * from './data-quality';
export * from './mdm';
export * from './schedules';
export * from './storage';
export * from './sync';
export * from './fanout/fanout-workflow';
export * from './streams/stream-workflow';
export * from './workbench/notebook-run-workflow';
export * from './generators/generate-workflow';
export * from './warehouses/warehouse-workflow';
export * from './finops/ledger-workflow';
export * from './finops/budgets-workflow';
export * from './finops/recommendations-workflow';
export * from './automation';
export * from './pipeline';
export * from './contracts';
