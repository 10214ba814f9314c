/**
 * The one drizzle schema. Each domain keeps its tables in its own file here and adds one `export *` line;
 * `npm run db:generate` then writes the SQL migration into store/migrations (committed).
 */
export * from './jobs';
export * from './rollback';
export * from './notifications';
export * from './safety';
export * from './clone-state';
