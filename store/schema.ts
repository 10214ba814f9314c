/**
 * The one drizzle schema: every domain keeps its tables in `store/<domain>/tables.ts` (or `*-tables.ts`) and adds
 * one `export *` line here; `npm run db:generate` then writes the SQL migration into store/migrations (committed).
 */
export * from './jobs/tables';
export * from './audit/tables';
export * from './notifications/tables';
export * from './targets/tables';
export * from './clone/tables';
export * from './clone/rollback-tables';
export * from './clone/safety-tables';
export * from './data-quality/tables';
export * from './governance/tables';
export * from './contracts/tables';
export * from './mdm/tables';
export * from './mdm/steward-tables';
export * from './mdm/rules';
export * from './data-quality/ops-tables';
export * from './schedules/tables';
export * from './analysis/tables';
export * from './workbench/tables';
export * from './warehouses/tables';
export * from './finops/tables';
export * from './finops/budgets';
export * from './finops/copq';
export * from './finops/recommendations';
export * from './streams/tables';
export * from './ai/tables';
export * from './compliance/tables';
export * from './automation/tables';
export * from './pipeline/tables';
export * from './auth/tables';
