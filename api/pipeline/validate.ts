import {
  STEP_CONFIG_SCHEMAS,
  STEP_TYPES,
  UNAVAILABLE_STEP_TYPES,
  type PipelineBody,
  type Step,
  type StepType,
} from '../../schemas/pipeline';
import type { ErrorDetail } from '../../schemas/common';
import { HttpError } from '../middleware/http-error';
import { assertRole, currentCaller } from '../middleware/auth';

/**
 * A pipeline as it is stored: each step's config checked with (and defaulted by) the schema of the endpoint it
 * stands for, names unique, the step types not run here refused, and custom_sql with
 * allow_write only from an admin. Problems are one 422 naming every field.
 */
export function checkPipeline(body: PipelineBody, cipher?: { seal(s: string): Record<string, string> }): PipelineBody {
  const problems: ErrorDetail[] = [];
  const seen = new Set<string>();
  const steps = body.steps.map((step, i): Step => {
    const at = `steps.${i}`;
    if (seen.has(step.name)) problems.push({ path: `${at}.name`, message: `${step.name} is used by another step` });
    seen.add(step.name);
    if ((UNAVAILABLE_STEP_TYPES as readonly string[]).includes(step.type)) {
      problems.push({ path: `${at}.type`, message: `${step.type} steps are not available yet` });
      return step;
    }
    if (!(STEP_TYPES as string[]).includes(step.type)) {
      problems.push({ path: `${at}.type`, message: `unknown step type; one of ${STEP_TYPES.join(', ')}` });
      return step;
    }
    const parsed = STEP_CONFIG_SCHEMAS[step.type as StepType].safeParse(step.config);
    if (!parsed.success) {
      for (const issue of parsed.error.issues)
        problems.push({ path: [at, 'config', ...issue.path].join('.'), message: issue.message });
      return step;
    }
    // Job steps keep the body as written: the job's own route parses it again when the step submits it.
    const config = ['clone', 'sync', 'dq_run'].includes(step.type)
      ? step.config
      : (parsed.data as Record<string, unknown>);
    if (step.type === 'custom_sql' && config.allow_write) {
      try {
        assertRole(currentCaller(), 'admin');
      } catch {
        problems.push({ path: `${at}.config.allow_write`, message: 'allow_write needs an admin' });
      }
    }
    if (step.type === 'webhook') {
      const { secret, ...rest } = config;
      if (typeof secret === 'string' && cipher)
        return { ...step, config: { ...rest, secret_sealed: cipher.seal(secret) } };
      if (!rest.secret_sealed)
        problems.push({ path: `${at}.config.secret`, message: 'a webhook needs a secret (whsec_…)' });
    }
    return { ...step, config };
  });
  if (problems.length)
    throw new HttpError(422, 'INVALID_PIPELINE', problems.map((p) => `${p.path}: ${p.message}`).join('; '), problems);
  return { ...body, steps };
}
