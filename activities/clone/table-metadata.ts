import type { CloneOptions } from '../../schemas/clone';
import type { Workspace } from '../../platform/port';
import type { TableDescription, TableRef } from '../../platform/types';
import { isSystemProperty, type MetadataFlags, Warnings } from './metadata-copy';

/**
 * A table's governance metadata after its data arrived, per the copy_* flags. Owner, comments and
 * properties come from the two table descriptions (one call each side instead of one per kind); the
 * remaining kinds are read from both sides concurrently. Compare-then-write keeps a retry from writing twice.
 */
export async function copyTableMetadata(
  src: Workspace,
  dst: Workspace,
  from: TableRef,
  to: TableRef,
  srcDesc: TableDescription,
  o: CloneOptions & MetadataFlags,
  w: Warnings,
): Promise<void> {
  const what = `table ${to.schema}.${to.name}`;
  const fromSec = { type: 'TABLE' as const, ...from };
  const toSec = { type: 'TABLE' as const, ...to };
  const dstDesc = await dst.describeTable(to);
  await Promise.all([
    o.copy_permissions &&
      w.try(`${what} grants`, async () => {
        const [want, haveList] = await Promise.all([src.getGrants(fromSec), dst.getGrants(toSec)]);
        const have = new Map(haveList.map((g) => [g.principal, new Set(g.privileges.map((p) => p.toUpperCase()))]));
        for (const g of want) {
          const missing = g.privileges.filter((p) => !have.get(g.principal)?.has(p.toUpperCase()));
          if (missing.length > 0) await dst.grant(toSec, g.principal, missing);
        }
      }),
    o.copy_ownership &&
      w.try(`${what} owner`, async () => {
        const owner = srcDesc.owner;
        if (owner && owner.toLowerCase() !== 'system' && owner !== dstDesc.owner) await dst.setOwner(toSec, owner);
      }),
    w.try(`${what} tags`, async () => {
      const [want, have] = await Promise.all([
        o.copy_tags ? src.getTags(fromSec) : Promise.resolve<Record<string, string>>({}),
        dst.getTags(toSec),
      ]);
      const extra = Object.keys(have).filter((k) => !(k in want));
      if (extra.length > 0) await dst.unsetTags(toSec, extra);
      const changed = Object.fromEntries(Object.entries(want).filter(([k, v]) => have[k] !== v));
      if (Object.keys(changed).length > 0) await dst.setTags(toSec, changed);
    }),
    w.try(`${what} properties and comment`, async () => {
      // Both are table metadata commits on Delta: done one after the other, each only when different.
      const want = o.copy_properties
        ? Object.fromEntries(Object.entries(srcDesc.properties).filter(([k]) => !isSystemProperty(k)))
        : {};
      Object.assign(want, o.clone_tbl_properties);
      const have = dstDesc.properties;
      const extra = Object.keys(have).filter((k) => !isSystemProperty(k) && !(k in want));
      if (extra.length > 0) await dst.unsetProperties(to, extra);
      const changed = Object.fromEntries(Object.entries(want).filter(([k, v]) => have[k] !== v));
      if (Object.keys(changed).length > 0) await dst.setProperties(to, changed);
      const comment = o.copy_comments ? srcDesc.comment : null;
      if ((comment ?? null) !== (dstDesc.comment ?? null)) await dst.setComment(toSec, comment ?? null);
      const wantCols = new Map(srcDesc.columns.map((c) => [c.name, o.copy_comments ? c.comment : null]));
      for (const c of dstDesc.columns) {
        const target = wantCols.get(c.name) ?? null;
        if ((target ?? null) !== (c.comment ?? null)) await dst.setColumnComment(to, c.name, target ?? null);
      }
    }),
    w.try(`${what} constraints`, async () => {
      const [want, haveList] = await Promise.all([
        o.copy_constraints ? src.listConstraints(from) : [],
        dst.listConstraints(to),
      ]);
      const have = new Map(haveList.map((c) => [c.name.toLowerCase(), c]));
      for (const c of want) {
        const existing = have.get(c.name.toLowerCase());
        if (existing && existing.expression === c.expression) continue;
        if (existing) await dst.dropConstraint(to, existing.name);
        await dst.addCheckConstraint(to, c);
      }
      const wanted = new Set(want.map((c) => c.name.toLowerCase()));
      for (const [name, c] of have) if (!wanted.has(name)) await dst.dropConstraint(to, c.name);
    }),
    w.try(`${what} column tags`, async () => {
      const [want, have] = await Promise.all([
        o.copy_tags ? src.getColumnTags(from) : Promise.resolve<Record<string, Record<string, string>>>({}),
        dst.getColumnTags(to),
      ]);
      if (!o.copy_tags) {
        // The port cannot unset column tags; a copy that carried some over is reported.
        const tagged = Object.keys(have).filter((c) => Object.keys(have[c]).length > 0);
        if (tagged.length > 0)
          w.list.push(
            `${what}: column tags on ${tagged.join(', ')} kept (copy_tags is false but they cannot be unset)`,
          );
        return;
      }
      for (const [col, tags] of Object.entries(want)) {
        const cur = have[col] ?? {};
        if (Object.entries(tags).some(([k, v]) => cur[k] !== v)) await dst.setColumnTags(to, col, tags);
      }
    }),
  ]);
}
