export * from './pipeline-workflow';
export * from './scheduled-run-workflow';
