import type { Workspace } from '../../platform/port';
import type { TableDescription, TableRef } from '../../platform/types';
import type { TargetContext } from '../../workflows/clone/engine-types';
import { sourceRef, targetRef } from './deps';
import { checkCancelled } from './heartbeat';
import { Warnings } from './metadata-copy';
import { FunctionCopier } from './routines';
import { copySecurity } from './security-copy';
import { executeCopy, type CopyOutcome } from './table-copy';
import { copyTableMetadata } from './table-metadata';
import { planTableCopy, UNIFORM_PROPERTIES } from './table-plan';

export interface Transfer extends CopyOutcome {
  desc: TableDescription;
  warnings: string[];
}

/**
 * The platform work for one table, without Temporal or the store: read the source, copy the data, then the
 * metadata, then row filter and masks. `beforeTouch` runs after the source is read and before the
 * destination is written (rollback recording). Used by the table activity and by the benchmark's baseline.
 */
export async function transferTable(
  src: Workspace,
  dst: Workspace,
  ctx: TargetContext,
  schema: string,
  name: string,
  beforeTouch: (to: TableRef) => Promise<unknown> = async () => undefined,
  cancellable = true,
): Promise<Transfer> {
  const o = ctx.options;
  const from = sourceRef(ctx, schema, name);
  const to = targetRef(ctx, schema, name);
  const desc = await src.describeTable(from);
  const plan = planTableCopy({
    source: from,
    target: to,
    format: desc.format,
    options: o,
    crossWorkspace: ctx.crossWorkspace,
    currentVersion: desc.version,
    sourceLabel: ctx.source.kind === 'local' ? ctx.source.root : ctx.source.host,
    targetLabel: ctx.target.label,
  });
  await beforeTouch(to);
  if (cancellable) checkCancelled();
  const outcome = await executeCopy(plan, src, dst, desc);
  if (cancellable) checkCancelled();
  const w = new Warnings();
  w.list.push(...plan.warnings);
  if (plan.uniform)
    await w.try(`${schema}.${name} UniForm properties`, () => dst.setProperties(to, UNIFORM_PROPERTIES));
  await copyTableMetadata(src, dst, from, to, desc, o, w);
  const functions = new FunctionCopier(src, dst, o.source_catalog, ctx.target.destinationCatalog, o.copy_comments);
  await copySecurity(src, dst, from, to, o.copy_security, functions);
  return { ...outcome, desc, warnings: w.list };
}
