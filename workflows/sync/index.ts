export * from './sync-workflows';
