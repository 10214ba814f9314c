export * from './ingest-workflow';
