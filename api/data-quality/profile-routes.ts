import { z } from 'zod';
import type { ProfileResult } from '../../activities/data-quality';
import { checkUserSql, type ColumnProfile, type Profile } from '../../activities/data-quality/logic';
import {
  ProfileBodySchema,
  ProfileListQuerySchema,
  ProfileResultsBodySchema,
  ProfileSchema,
  ProfileTableBodySchema,
  type ProfileOptions,
} from '../../schemas/data-quality-profiles';
import { listProfiles, type DqProfileRow } from '../../store/data-quality/profiles';
import type { AppDeps } from '../deps';
import { HttpError } from '../middleware/http-error';
import { route } from '../middleware/route';
import { guardUserSql } from '../governance/sql-guard';
import { currentCaller } from '../middleware/auth';
import { actorOf } from './checks-service';
import { directWorkflowId, executeDqWorkflow } from './direct-workflow';

const G = '/governance/dqx';
const pct = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part / whole) * 10_000) / 100);

/** A profile with the derived percentages (null_pct, distinct_pct, each top value's pct). */
export function profileView(p: Profile & { profile_id?: string; execution_time_ms?: number }) {
  const column = (c: ColumnProfile) => ({
    ...c,
    null_pct: pct(c.nulls, c.count),
    distinct_pct: pct(c.distinct, c.count),
    top_values: c.top_values.map((t) => ({ ...t, pct: pct(t.count, c.count) })),
  });
  return { ...p, columns: p.columns.map(column) };
}

/** Profiles a table (or a checked read-only query) on the worker: the dqProfileWorkflow, awaited. */
export async function runProfile(
  deps: AppDeps,
  target: { tableFqn: string } | { sql: string },
  options: ProfileOptions,
  store: boolean,
): Promise<ProfileResult> {
  const profileId = directWorkflowId('profile');
  const input = { profileId, ...target, options, profiledBy: actorOf(deps), store };
  return executeDqWorkflow<ProfileResult>(deps, 'dqProfileWorkflow', profileId, input);
}

const rowView = (r: DqProfileRow) => profileView({ ...(r.profile as unknown as Profile), profile_id: r.profileId });

const errors = { 404: 'The table does not exist', 422: 'An option names a column the table does not have' };

/** Profiling under /governance/dqx (both prefixes). */
export const profileRoutes = [
  route({
    method: 'post',
    path: `${G}/profile`,
    summary:
      'Profile a table (stored): per column counts, nulls, distinct, min/max/mean/stddev, lengths, histogram, top values',
    request: { body: ProfileBodySchema },
    response: { description: 'The profile', schema: ProfileSchema },
    errors,
    handler: async ({ deps, input: { body } }) =>
      profileView(await runProfile(deps, { tableFqn: body.table_fqn }, body.options, true)),
  }),
  route({
    method: 'get',
    path: `${G}/profiles`,
    summary: 'Stored profiles, newest first, optionally of one table',
    request: { query: ProfileListQuerySchema },
    response: { description: 'Profiles', schema: z.array(ProfileSchema) },
    handler: async ({ deps, input: { query: q } }) =>
      (await listProfiles(deps.store.db, { tableFqn: q.table_fqn, limit: q.limit, offset: q.offset })).map(rowView),
  }),
];

/** The workbench's profiler: served under /api only (the specification gives these paths with /api). */
export const workbenchProfileRoutes = [
  route({
    method: 'post',
    path: '/api/profile-table',
    summary: 'Profile a table by FQN (stats, histograms with 20 buckets, top 10 values); stored',
    request: { body: ProfileTableBodySchema },
    response: { description: 'The profile', schema: ProfileSchema },
    errors,
    handler: async ({ deps, input: { body } }) => {
      const { table_fqn, ...options } = body;
      return profileView(await runProfile(deps, { tableFqn: table_fqn }, options, true));
    },
  }),
  route({
    method: 'post',
    path: '/api/profile-results',
    summary: 'Profile the result of one read-only query (SELECT or WITH … SELECT)',
    role: 'viewer',
    request: { body: ProfileResultsBodySchema },
    response: { description: 'The profile (table_fqn is "query")', schema: ProfileSchema },
    errors: { 404: 'A table the query reads does not exist', 422: 'The query does not run' },
    handler: async ({ deps, input: { body } }) => {
      const { sql, ...options } = body;
      const problem = checkUserSql(sql, 'query');
      if (problem)
        throw new HttpError(400, 'VALIDATION_ERROR', `sql ${problem}`, [{ path: 'body.sql', message: problem }]);
      await guardUserSql(deps, currentCaller(), { sql, kind: 'query', field: 'body.sql' }); // what it reads: 403
      return profileView(await runProfile(deps, { sql }, options, false));
    },
  }),
];
