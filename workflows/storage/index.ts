export * from './maintenance-workflow';
