export * from './ingest-workflow';
export * from './match-workflow';
export * from './steward-workflow';
export * from './report-workflow';
export * from './schedule-workflow';
