import { z } from 'zod';
import {
  generateChecks,
  profileDrift,
  toDqxYaml,
  type DqCheck,
  type Profile,
} from '../../activities/data-quality/logic';
import { DriftBodySchema, GenerateBodySchema, ProfileOptionsSchema } from '../../schemas/data-quality-profiles';
import { CheckSchema } from '../../schemas/data-quality';
import { asDqxCheck, insertChecks, listChecks } from '../../store/data-quality/checks';
import { latestProfile } from '../../store/data-quality/profiles';
import type { AppDeps } from '../deps';
import { route } from '../middleware/route';
import { actorOf, checkRow, checkView } from './checks-service';
import { runProfile } from './profile-routes';

const G = '/governance/dqx';

/** Same function, columns and arguments (name, criticality and filter aside): generating it again adds nothing. */
export const generatedKey = (c: DqCheck) =>
  toDqxYaml([{ ...c, name: '', criticality: 'error', filter: null, user_metadata: null }]);

async function freshProfile(deps: AppDeps, tableFqn: string): Promise<Profile> {
  return runProfile(deps, { tableFqn }, ProfileOptionsSchema.parse({}), true);
}

const DriftSchema = z.object({
  table_fqn: z.string(),
  old_profile_id: z.string().nullable(),
  new_profile_id: z.string(),
  existing_checks: z.number(),
  new_columns: z.array(z.string()),
  removed_columns: z.array(z.string()),
  recommendations: z.array(
    z.object({
      type: z.enum(['new_column', 'removed_column', 'changed_pattern', 'uncovered']),
      severity: z.enum(['info', 'warning']),
      column: z.string(),
      description: z.string(),
      suggested_check: z.record(z.string(), z.unknown()).optional(),
      orphan_check_ids: z.array(z.string()).optional(),
    }),
  ),
  total_recommendations: z.number(),
});

export const generateRoutes = [
  route({
    method: 'post',
    path: `${G}/generate`,
    summary: 'Generate checks from the latest profile with DQX generator rules; existing checks are not duplicated',
    request: { body: GenerateBodySchema },
    response: {
      description: 'What was generated and stored',
      schema: z.object({
        table_fqn: z.string(),
        generated: z.number(),
        created: z.number(),
        already_present: z.number(),
        checks: z.array(CheckSchema),
      }),
    },
    errors: { 404: 'The table does not exist' },
    handler: async ({ deps, input: { body } }) => {
      const stored = body.refresh_profile ? undefined : await latestProfile(deps.store.db, body.table_fqn);
      const profile = stored ? (stored.profile as unknown as Profile) : await freshProfile(deps, body.table_fqn);
      const o = body.options;
      const generated = generateChecks(profile, body.table_fqn, {
        criticality: body.criticality === 'warning' ? 'warn' : body.criticality,
        maxInCount: o.max_in_count,
        distinctRatio: o.distinct_ratio,
        maxNullRatio: o.max_null_ratio,
        maxEmptyRatio: o.max_empty_ratio,
      });
      const seen = new Set(
        (await listChecks(deps.store.db, { tableFqn: body.table_fqn })).map((r) => generatedKey(asDqxCheck(r))),
      );
      const fresh = generated.filter((c) => {
        const key = generatedKey(c);
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      });
      const by = actorOf(deps);
      const rows = await insertChecks(
        deps.store.db,
        fresh.map((c) => checkRow({ ...c, id: undefined }, by)),
        by,
      );
      return {
        table_fqn: body.table_fqn,
        generated: generated.length,
        created: rows.length,
        already_present: generated.length - rows.length,
        checks: rows.map(checkView),
      };
    },
  }),
  route({
    method: 'post',
    path: `${G}/profile-drift`,
    summary: 'Profile the table again and compare with the latest stored profile: new/removed columns, recommendations',
    request: { body: DriftBodySchema },
    response: { description: 'Profile drift', schema: DriftSchema },
    errors: { 404: 'The table does not exist' },
    handler: async ({ deps, input: { body } }) => {
      const previous = await latestProfile(deps.store.db, body.table_fqn);
      const current = await freshProfile(deps, body.table_fqn);
      const checks = (await listChecks(deps.store.db, { tableFqn: body.table_fqn })).map(asDqxCheck);
      const drift = profileDrift(previous ? (previous.profile as unknown as Profile) : null, current, checks);
      return {
        ...drift,
        old_profile_id: previous?.profileId ?? null,
        new_profile_id: (current as Profile & { profile_id: string }).profile_id,
        existing_checks: checks.length,
        // suggested_check is a DqCheck: an object the schema documents loosely.
        recommendations: drift.recommendations as unknown as z.input<typeof DriftSchema>['recommendations'],
      };
    },
  }),
];
