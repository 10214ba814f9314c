import { evaluateAccess, type PolicyRule } from '../../activities/governance/logic/policy';
import type { AccessRequest, Caller, Policy, PolicyOperation } from '../../schemas/governance';
import { listPolicies, type AccessPolicyRow } from '../../store/governance/policies';
import type { AppDeps } from '../deps';
import { HttpError } from '../middleware/http-error';

export function policyRule(r: AccessPolicyRow): PolicyRule {
  return {
    name: r.name,
    principals: r.principals,
    allowed_sources: r.allowedSources,
    allowed_destinations: r.allowedDestinations,
    allowed_schemas: r.allowedSchemas,
    allowed_operations: r.allowedOperations as (PolicyOperation | '*')[],
    deny: r.deny,
  };
}

export function policyView(r: AccessPolicyRow): Policy {
  return {
    ...policyRule(r),
    description: r.description,
    created_by: r.createdBy,
    created_at: r.createdAt.toISOString(),
  };
}

/** A refusal by an access policy: 403 POLICY_DENIED whose message and details name the rule. */
export function policyDenied(rule: string, reason: string, path = 'body'): HttpError {
  return new HttpError(403, 'POLICY_DENIED', `Refused: ${reason}`, [{ path, message: `rule ${rule}` }]);
}

/**
 * The one access check every domain calls before it reads or writes a catalog for a caller: the stored access
 * policies, deny first (activities/governance/logic/policy.ts). Throws 403 POLICY_DENIED naming the rule.
 * `field` is the request field the refusal points at (default `body`).
 */
export async function assertAllowed(
  deps: Pick<AppDeps, 'store'>,
  caller: Caller,
  request: AccessRequest,
  field?: string,
): Promise<void> {
  const rules = (await listPolicies(deps.store.db)).map(policyRule);
  const decision = evaluateAccess(rules, caller, request);
  if (!decision.allowed) throw policyDenied(decision.rule, decision.reason, field);
}
