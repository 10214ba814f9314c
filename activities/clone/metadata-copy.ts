import type { CloneOptions } from '../../schemas/clone';
import type { Workspace } from '../../platform/port';
import type { Securable } from '../../platform/types';
import { errorText } from './failures';

/**
 * Copies the governance metadata the copy_* flags ask for, and removes what a false flag excludes that the
 * copy carried over. Every step compares first and writes only differences, so running it twice (a retried
 * activity) changes nothing the second time. Failures of one item become warnings: metadata never fails a
 * table whose data arrived (for example an owner that does not exist in another workspace).
 */

export type MetadataFlags = Pick<
  CloneOptions,
  | 'copy_permissions'
  | 'copy_ownership'
  | 'copy_tags'
  | 'copy_properties'
  | 'copy_constraints'
  | 'copy_comments'
  | 'copy_security'
>;

export class Warnings {
  readonly list: string[] = [];
  async try(what: string, fn: () => Promise<unknown>): Promise<void> {
    try {
      await fn();
    } catch (err) {
      this.list.push(`${what}: ${errorText(err)}`);
    }
  }
}

const sameTags = (a: Record<string, string>, b: Record<string, string>) =>
  Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([k, v]) => b[k] === v);

/** Grants, owner, tags and comment of any securable. */
export async function copySecurable(
  src: Workspace,
  dst: Workspace,
  from: Securable,
  to: Securable,
  flags: Pick<MetadataFlags, 'copy_permissions' | 'copy_ownership' | 'copy_tags' | 'copy_comments'>,
  w: Warnings,
  what: string,
): Promise<void> {
  if (flags.copy_permissions) {
    await w.try(`${what} grants`, async () => {
      const have = new Map(
        (await dst.getGrants(to)).map((g) => [g.principal, new Set(g.privileges.map((p) => p.toUpperCase()))]),
      );
      for (const g of await src.getGrants(from)) {
        const missing = g.privileges.filter((p) => !have.get(g.principal)?.has(p.toUpperCase()));
        if (missing.length > 0) await dst.grant(to, g.principal, missing);
      }
    });
  }
  if (flags.copy_ownership) {
    await w.try(`${what} owner`, async () => {
      const owner = await src.getOwner(from);
      if (owner && owner.toLowerCase() !== 'system' && owner !== (await dst.getOwner(to)))
        await dst.setOwner(to, owner);
    });
  }
  await w.try(`${what} tags`, async () => {
    const want = flags.copy_tags ? await src.getTags(from) : {};
    const have = await dst.getTags(to);
    if (sameTags(want, have)) return;
    const extra = Object.keys(have).filter((k) => !(k in want));
    if (extra.length > 0) await dst.unsetTags(to, extra);
    const changed = Object.fromEntries(Object.entries(want).filter(([k, v]) => have[k] !== v));
    if (Object.keys(changed).length > 0) await dst.setTags(to, changed);
  });
  await w.try(`${what} comment`, async () => {
    const want = flags.copy_comments ? await src.getComment(from) : null;
    if ((want ?? null) !== ((await dst.getComment(to)) ?? null)) await dst.setComment(to, want ?? null);
  });
}

/** Property keys owned by the engine rather than the user; never copied or removed. */
export const isSystemProperty = (key: string) =>
  /^(delta\.|spark\.|option\.|lakeward\.)/.test(key) || key === 'transient_lastDdlTime';
