export * from './pipeline-workflow';
