import type { Request } from 'express';
import {
  COPQ_DEFAULTS,
  copqByTable,
  copqEvents,
  copqSummary,
  copqTrends,
  type CopqParams,
  type CopqType,
} from '../../activities/finops/logic/copq';
import { viewSql } from '../../activities/finops/logic/views';
import {
  listCopqEvents,
  readCopqConfig,
  readCopqFacts,
  replaceCopqEvents,
  writeCopqConfig,
  type CopqEventRow,
} from '../../store/finops/copq-repo';
import type { AppDeps } from '../deps';
import { defineRoutes, route } from '../middleware/route';
import {
  CopqByTableSchema,
  CopqComputeSchema,
  CopqConfigSchema,
  CopqDaysQuery,
  CopqParamsSchema,
  CopqSummarySchema,
  CopqTrendsSchema,
} from './schemas';

const DAY = 86_400_000;
const WEEK = 7 * DAY;

const priced = (rows: CopqEventRow[]) =>
  rows.map((e) => ({ table: e.tableFqn, type: e.type as CopqType, week: e.week, costUsd: e.costUsd }));

async function config(deps: AppDeps): Promise<CopqParams> {
  return { ...COPQ_DEFAULTS, ...((await readCopqConfig(deps.store.db)) ?? {}) };
}

/** Ledger cost per job over the window (the job-costs view); unreadable system tables → no ledger cost. */
async function jobCosts(
  deps: AppDeps,
  req: Request,
  days: number,
): Promise<{ costs: Map<string, number>; reason?: string }> {
  try {
    const ws = await deps.workspaces.resolve(req);
    const res = await ws.query(viewSql('job-costs', days));
    const costs = new Map<string, number>();
    for (const r of res.rows) costs.set(String(r.job_id), (costs.get(String(r.job_id)) ?? 0) + Number(r.cost));
    return { costs };
  } catch (err) {
    return { costs: new Map(), reason: `system tables are not readable: ${(err as Error).message}` };
  }
}

/**
 * Cost of poor data quality: `POST /api/copq/compute` prices the window's data-quality facts and replaces the
 * window's events (idempotent); summary, by-table and 12-week trends read them; config holds the defaults.
 */
export const copqRoutes = defineRoutes({
  name: 'copq',
  routes: [
    route({
      method: 'get',
      path: '/copq/config',
      summary: 'The COPQ parameters a compute uses by default',
      response: { description: 'Parameters', schema: CopqConfigSchema },
      handler: async ({ deps }) => config(deps),
    }),
    route({
      method: 'put',
      path: '/copq/config',
      summary: 'Change the default COPQ parameters (fields left out keep their value)',
      request: { body: CopqParamsSchema },
      response: { description: 'Parameters', schema: CopqConfigSchema },
      handler: async ({ deps, input: { body } }) => {
        const next = { ...(await config(deps)), ...body };
        await writeCopqConfig(deps.store.db, next);
        return next;
      },
    }),
    route({
      method: 'post',
      path: '/copq/compute',
      summary: 'Price the window’s data-quality facts; replaces the window’s events in one transaction',
      request: { body: CopqParamsSchema },
      response: { description: 'What the compute priced', schema: CopqComputeSchema },
      handler: async ({ deps, req, input: { body } }) => {
        const params = { ...(await config(deps)), ...body };
        const now = new Date();
        const since = new Date(now.getTime() - params.window_days * DAY);
        const [facts, ledger] = await Promise.all([
          readCopqFacts(deps.store.db, since),
          jobCosts(deps, req, params.window_days + 1),
        ]);
        const events = copqEvents(facts, ledger.costs, params);
        await replaceCopqEvents(
          deps.store.db,
          since,
          events.map((e) => ({ tableFqn: e.table, computedAt: now, ...e })),
        );
        return {
          params,
          window_start: since.toISOString(),
          facts: facts.length,
          events: events.length,
          ledger_available: !ledger.reason,
          ...(ledger.reason ? { ledger_unavailable_reason: ledger.reason } : {}),
        };
      },
    }),
    route({
      method: 'get',
      path: '/copq/summary',
      summary: 'COPQ totals by type over the last `days` (default: the configured window)',
      request: { query: CopqDaysQuery },
      response: { description: 'Totals', schema: CopqSummarySchema },
      handler: async ({ deps, input: { query } }) => {
        const days = query.days ?? (await config(deps)).window_days;
        const events = await listCopqEvents(deps.store.db, new Date(Date.now() - days * DAY));
        return { window_days: days, ...copqSummary(priced(events)) };
      },
    }),
    route({
      method: 'get',
      path: '/copq/by-table',
      summary: 'COPQ per table over the last `days`, most expensive first',
      request: { query: CopqDaysQuery },
      response: { description: 'Per table', schema: CopqByTableSchema },
      handler: async ({ deps, input: { query } }) => {
        const days = query.days ?? (await config(deps)).window_days;
        const events = await listCopqEvents(deps.store.db, new Date(Date.now() - days * DAY));
        return { window_days: days, tables: copqByTable(priced(events)) };
      },
    }),
    route({
      method: 'get',
      path: '/copq/trends',
      summary: 'COPQ per ISO week: exactly the last 12 weeks, oldest first, zeros included',
      response: { description: 'Weeks', schema: CopqTrendsSchema },
      handler: async ({ deps }) => {
        const now = new Date();
        const events = await listCopqEvents(deps.store.db, new Date(now.getTime() - 13 * WEEK));
        return { weeks: copqTrends(priced(events), now, 12) };
      },
    }),
  ],
});
