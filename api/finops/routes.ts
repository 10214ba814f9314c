import {
  jobCostsByJob,
  summariseBilling,
  viewSql,
  type BillingLine,
  type BillingView,
} from '../../activities/finops/logic/views';
import { BillingSchema, FinopsQuerySchema, FinopsRowsSchema } from '../../schemas/finops';
import type { AppDeps } from '../deps';
import { defineRoutes, route } from '../middleware/route';
import type { Request } from 'express';

/** Runs one billing view on the request's workspace; unreadable system tables are an answer, not an error. */
async function runView(
  deps: AppDeps,
  req: Request,
  view: BillingView,
  days: number,
): Promise<{ ok: true; rows: Record<string, unknown>[] } | { ok: false; reason: string }> {
  try {
    const ws = await deps.workspaces.resolve(req);
    const res = await ws.query(viewSql(view, days));
    return { ok: true, rows: res.rows.map((r) => plain(r)) };
  } catch (err) {
    return { ok: false, reason: `system tables are not readable: ${(err as Error).message}` };
  }
}

/** bigint → number, for JSON. */
function plain(row: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(row).map(([k, v]) => [k, typeof v === 'bigint' ? Number(v) : v]));
}

const ROW_VIEWS: { view: BillingView; summary: string }[] = [
  {
    view: 'job-costs',
    summary: 'Cost per job: warehouse DBUs and USD allocated by the duration of the statements tagged with its id',
  },
  { view: 'warehouses', summary: 'Warehouses as system.compute.warehouses records them (one row per change)' },
  { view: 'warehouse-events', summary: 'Warehouse state transitions (system.compute.warehouse_events)' },
  { view: 'query-costs', summary: 'Per warehouse: DBUs spent running work and idle, and their cost' },
  { view: 'storage', summary: 'Storage prices (GB-month) with the time each took effect' },
  { view: 'system-status', summary: 'Rows in each system table the billing views read' },
];

/**
 * Billing and cost views over Databricks' system tables: the same SQL on the local lakehouse (its tables
 * derived by the usage ledger) and on a Databricks workspace. `/finops/*` with and without `/api`.
 */
export const finopsRoutes = defineRoutes({
  name: 'finops',
  mounts: ['/api', '/'],
  routes: [
    route({
      method: 'get',
      path: '/finops/billing',
      summary: 'Billing over the last `days`: totals, daily trend, by SKU, product, warehouse, user and job',
      request: { query: FinopsQuerySchema },
      response: { description: 'Billing (or available false with the reason)', schema: BillingSchema },
      handler: async ({ deps, req, input: { query } }) => {
        const res = await runView(deps, req, 'billing', query.days);
        if (!res.ok) return { available: false as const, reason: res.reason };
        const lines = res.rows.map((r) => ({ ...r, dbus: Number(r.dbus), cost: Number(r.cost) })) as BillingLine[];
        const summary = summariseBilling(lines);
        // Per job: warehouse cost allocated by the job's tagged statements (the same SQL on both adapters).
        const jobs = await runView(deps, req, 'job-costs', query.days);
        return {
          available: true as const,
          days: query.days,
          currency: 'USD' as const,
          ...summary,
          ...(jobs.ok
            ? { by_job: jobCostsByJob(jobs.rows), by_job_source: 'query_history' as const }
            : { by_job_source: 'usage' as const }),
        };
      },
    }),
    ...ROW_VIEWS.map(({ view, summary }) =>
      route({
        method: 'get',
        path: `/finops/${view}`,
        summary,
        request: { query: FinopsQuerySchema },
        response: { description: 'Rows (or available false with the reason)', schema: FinopsRowsSchema },
        handler: async ({ deps, req, input: { query } }) => {
          const res = await runView(deps, req, view, query.days);
          if (!res.ok) return { available: false as const, reason: res.reason };
          return { available: true as const, days: query.days, rows: res.rows };
        },
      }),
    ),
  ],
});
