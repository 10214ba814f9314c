import type { AccessRequest, Caller, PolicyOperation } from '../../../schemas/governance';

/** The fields of an access policy the evaluation reads. */
export interface PolicyRule {
  name: string;
  principals: string[];
  allowed_sources: string[];
  allowed_destinations: string[];
  allowed_schemas: string[];
  allowed_operations: (PolicyOperation | '*')[];
  deny: boolean;
}

export type AccessDecision =
  { allowed: true; rule: string | null; reason: string } | { allowed: false; rule: string; reason: string };

/** `prod_*` → /^prod_.*$/i: `*` any run of characters, `?` one; everything else literal; the whole name. */
export function patternMatches(pattern: string, name: string): boolean {
  const body = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${body}$`, 'i').test(name);
}

const anyMatches = (patterns: string[], name: string) => patterns.some((p) => patternMatches(p, name));
const unrestricted = (patterns: string[]) => patterns.includes('*');

/** A rule names the caller by key name, by role, or with `*` (case-insensitive). */
export function namesCaller(rule: PolicyRule, caller: Caller): boolean {
  return rule.principals.some((p) => {
    const q = p.toLowerCase();
    return q === '*' || q === caller.name.toLowerCase() || q === caller.role;
  });
}

const coversOperation = (rule: PolicyRule, op: PolicyOperation) =>
  rule.allowed_operations.includes('*') || rule.allowed_operations.includes(op);

/**
 * A deny rule covers a request when the operation is one of its operations and every dimension the rule
 * restricts (not `*`) matches what the request touches: its source, its destination, any of its schemas.
 * A dimension the request does not touch (a read has no destination) is not covered by a rule restricting it;
 * a request without a schema list touches every schema, so a rule restricting schemas covers it.
 */
function denyCovers(rule: PolicyRule, req: AccessRequest): boolean {
  if (!coversOperation(rule, req.operation)) return false;
  const dims: [string[], string[] | 'all'][] = [
    [rule.allowed_sources, req.source ? [req.source] : []],
    [rule.allowed_destinations, req.destination ? [req.destination] : []],
    [rule.allowed_schemas, req.schemas ?? 'all'],
  ];
  return dims.every(
    ([patterns, names]) => unrestricted(patterns) || names === 'all' || names.some((n) => anyMatches(patterns, n)),
  );
}

/** An allow rule permits a request when it covers the operation and everything the request touches. */
function allowCovers(rule: PolicyRule, req: AccessRequest): boolean {
  if (!coversOperation(rule, req.operation)) return false;
  if (req.source && !anyMatches(rule.allowed_sources, req.source)) return false;
  if (req.destination && !anyMatches(rule.allowed_destinations, req.destination)) return false;
  if (!req.schemas) return unrestricted(rule.allowed_schemas); // every schema of the catalog
  return req.schemas.every((s) => anyMatches(rule.allowed_schemas, s));
}

function describe(req: AccessRequest): string {
  const parts: string[] = [req.operation];
  if (req.source) parts.push(`of ${req.source}`);
  if (req.destination) parts.push(`into ${req.destination}`);
  if (req.schemas?.length) parts.push(`(schemas ${req.schemas.join(', ')})`);
  return parts.join(' ');
}

/**
 * Deny first: the first deny rule naming the caller that covers the request refuses it. Then, if any allow rule
 * names the caller, the caller is limited to its allow rules: one of them must cover the request. A caller no
 * allow rule names is not limited (no policies at all: everything is allowed, as without governance).
 */
export function evaluateAccess(rules: PolicyRule[], caller: Caller, req: AccessRequest): AccessDecision {
  const mine = rules.filter((r) => namesCaller(r, caller));
  const what = describe(req);
  for (const rule of mine.filter((r) => r.deny)) {
    if (denyCovers(rule, req))
      return { allowed: false, rule: rule.name, reason: `access policy ${rule.name} denies ${what} to ${caller.name}` };
  }
  const allows = mine.filter((r) => !r.deny);
  if (allows.length === 0) return { allowed: true, rule: null, reason: `no access policy limits ${caller.name}` };
  const hit = allows.find((r) => allowCovers(r, req));
  if (hit) return { allowed: true, rule: hit.name, reason: `access policy ${hit.name} allows ${what}` };
  const names = allows.map((r) => r.name).join(', ');
  return {
    allowed: false,
    rule: names,
    reason: `no access policy allows ${what} to ${caller.name} (its allow rules: ${names})`,
  };
}
