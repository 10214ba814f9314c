export * from './validation-workflow';
