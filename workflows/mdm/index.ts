export * from './ingest-workflow';
export * from './match-workflow';
