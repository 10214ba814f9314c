import { z } from 'zod';
import { checkCondition, legacyToCel } from '../../activities/automation/logic/conditions';
import { knownFields } from '../../activities/automation/logic/event-shape';
import {
  TriggerConfigSchemas,
  type Action,
  type LegacyCondition,
  type PlaybookBody,
  type TriggerType,
} from '../../schemas/automation';
import type { ErrorDetail } from '../../schemas/common';
import { automationCipher } from '../../store/automation/secrets';
import type { PlaybookRow } from '../../store/automation/repo';
import type { AppDeps } from '../deps';
import { HttpError } from '../middleware/http-error';
import { jobTypes } from '../jobs/service';

const unprocessable = (message: string, details: ErrorDetail[]) =>
  new HttpError(
    422,
    'INVALID_PLAYBOOK',
    `${message}: ${details.map((d) => `${d.path}: ${d.message}`).join('; ')}`,
    details,
  );

/** trigger_config checked with its trigger's schema (defaults filled in). */
export function checkTriggerConfig(type: TriggerType, config: Record<string, unknown>): Record<string, unknown> {
  const parsed = TriggerConfigSchemas[type].safeParse(config);
  if (parsed.success) return parsed.data as Record<string, unknown>;
  throw unprocessable(
    `trigger_config does not fit trigger_type ${type}`,
    parsed.error.issues.map((i) => ({ path: ['trigger_config', ...i.path].join('.'), message: i.message })),
  );
}

/** The CEL text of the body's conditions, checked against the fields the trigger's events have. */
export function compileConditions(type: TriggerType, conditions: PlaybookBody['conditions']): string {
  const cel =
    conditions === undefined
      ? ''
      : typeof conditions === 'string'
        ? conditions
        : Array.isArray(conditions)
          ? legacyToCel(conditions as LegacyCondition[])
          : conditions.cel;
  const problems = checkCondition(cel, knownFields(type));
  if (problems.length) throw unprocessable('conditions are refused', problems);
  return cel;
}

const WebhookParams = z.looseObject({
  url: z.url({ protocol: /^https?$/ }),
  secret: z
    .string()
    .regex(/^whsec_[A-Za-z0-9+/=]{16,}$/, 'a Standard Webhooks secret: whsec_ and base64')
    .optional(),
  headers: z.record(z.string(), z.string()).optional(),
});

/**
 * Actions as stored: types this service can run (run_pipeline needs a `pipeline` job type and a pipeline_id,
 * open_case master-data cases), webhook parameters checked, a new webhook secret sealed (`secret_sealed`) and a left-out one kept from
 * the playbook's previous version.
 */
export function prepareActions(deps: AppDeps, actions: Action[], previous?: PlaybookRow): Action[] {
  const problems: ErrorDetail[] = [];
  const types = jobTypes(deps);
  const cipher = automationCipher(deps.config);
  const out = actions.map((a, i) => {
    const at = `actions.${i}`;
    if (a.type === 'run_pipeline' && !types.has('pipeline'))
      problems.push({ path: `${at}.type`, message: 'pipelines not available' });
    else if (a.type === 'run_pipeline' && (typeof a.params.pipeline_id !== 'string' || !a.params.pipeline_id))
      problems.push({ path: `${at}.params.pipeline_id`, message: 'the pipeline to run is required' });
    if (a.type !== 'webhook') return a;
    const parsed = WebhookParams.safeParse(a.params);
    if (!parsed.success) {
      for (const issue of parsed.error.issues)
        problems.push({ path: [at, 'params', ...issue.path].join('.'), message: issue.message });
      return a;
    }
    const { secret, ...rest } = a.params as Record<string, unknown>;
    delete rest.secret_sealed;
    delete rest.secret_set;
    if (typeof secret === 'string') return { ...a, params: { ...rest, secret_sealed: cipher.seal(secret) } };
    const kept = previous?.actions.find((p) => p.type === 'webhook' && p.params.url === rest.url)?.params.secret_sealed;
    if (!kept) problems.push({ path: `${at}.params.secret`, message: 'a webhook needs a secret (whsec_…)' });
    return { ...a, params: { ...rest, secret_sealed: kept } };
  });
  if (problems.length)
    throw new HttpError(422, 'INVALID_PLAYBOOK', problems.map((p) => `${p.path}: ${p.message}`).join('; '), problems);
  return out;
}

/** An action as shown: a sealed secret becomes `secret_set: true`. */
export function shownAction(a: Action): Action {
  const { secret_sealed: sealed, ...rest } = a.params;
  return sealed ? { ...a, params: { ...rest, secret_set: true } } : a;
}
