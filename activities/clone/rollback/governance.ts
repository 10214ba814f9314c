import type { Workspace } from '../../../platform/port';
import type { Grant, Securable } from '../../../platform/types';

/**
 * A pre-existing destination table's grants and tags as they were before the job: the clone's copy_permissions
 * and copy_tags change them, and a Delta RESTORE does not put them back (they live in the metastore).
 */
export interface TableGovernance {
  grants: Grant[];
  tags: Record<string, string>;
}

export async function readGovernance(ws: Workspace, s: Securable): Promise<TableGovernance> {
  const [grants, tags] = await Promise.all([ws.getGrants(s), ws.getTags(s)]);
  return { grants: grants.map((g) => ({ principal: g.principal, privileges: [...g.privileges] })), tags };
}

/** `ALL_PRIVILEGES`, `all privileges` and `ALL PRIVILEGES` are one privilege. */
const norm = (p: string) =>
  p
    .trim()
    .toUpperCase()
    .replace(/[_\s]+/g, ' ');

/** Per principal, the privileges `a` holds that `b` does not. */
export function grantsMissingFrom(a: Grant[], b: Grant[]): Grant[] {
  const held = new Map(b.map((g) => [g.principal, new Set(g.privileges.map(norm))]));
  return a
    .map((g) => ({
      principal: g.principal,
      privileges: g.privileges.filter((p) => !held.get(g.principal)?.has(norm(p))),
    }))
    .filter((g) => g.privileges.length > 0);
}

/** Tag changes that turn `now` into `want`: keys to remove, and keys to set (added back or changed back). */
export function tagChanges(
  want: Record<string, string>,
  now: Record<string, string>,
): { unset: string[]; set: Record<string, string> } {
  return {
    unset: Object.keys(now).filter((k) => !(k in want)),
    set: Object.fromEntries(Object.entries(want).filter(([k, v]) => now[k] !== v)),
  };
}

/**
 * Puts grants and tags back exactly as recorded: revokes what was added, then grants what is missing (read again
 * after the revokes: revoking ALL PRIVILEGES takes individually held privileges with it), unsets added tags and
 * sets removed or changed ones. Idempotent: a second run finds nothing to change.
 */
export async function restoreGovernance(ws: Workspace, s: Securable, recorded: TableGovernance): Promise<void> {
  for (const g of grantsMissingFrom(await ws.getGrants(s), recorded.grants))
    await ws.revoke(s, g.principal, g.privileges);
  for (const g of grantsMissingFrom(recorded.grants, await ws.getGrants(s)))
    await ws.grant(s, g.principal, g.privileges);
  const tags = tagChanges(recorded.tags, await ws.getTags(s));
  if (tags.unset.length > 0) await ws.unsetTags(s, tags.unset);
  if (Object.keys(tags.set).length > 0) await ws.setTags(s, tags.set);
}
