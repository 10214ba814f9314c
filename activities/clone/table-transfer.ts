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

/** A table whose data arrived: what `finishTransfer` needs to copy its metadata, row filter and masks. */
export interface CopiedTable extends CopyOutcome {
  desc: TableDescription;
  from: TableRef;
  to: TableRef;
  warnings: string[];
  uniform: boolean;
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
  const copied = await copyTableData(src, dst, ctx, schema, name, beforeTouch, cancellable);
  return finishTransfer(src, dst, ctx, copied);
}

/**
 * The first half of transferTable: read the source, plan, and copy the data (the destination table exists
 * with the source's data and the clone's properties when it returns). The table activity runs the next
 * table's copy while this one's finishTransfer runs.
 */
export async function copyTableData(
  src: Workspace,
  dst: Workspace,
  ctx: TargetContext,
  schema: string,
  name: string,
  beforeTouch: (to: TableRef) => Promise<unknown> = async () => undefined,
  cancellable = true,
): Promise<CopiedTable> {
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
  return { ...outcome, desc, from, to, warnings: [...plan.warnings], uniform: !!plan.uniform };
}

/** The second half of transferTable: UniForm properties, metadata, then row filter and masks. */
export async function finishTransfer(
  src: Workspace,
  dst: Workspace,
  ctx: TargetContext,
  c: CopiedTable,
): Promise<Transfer> {
  const o = ctx.options;
  const w = new Warnings();
  w.list.push(...c.warnings);
  if (c.uniform)
    await w.try(`${c.from.schema}.${c.from.name} UniForm properties`, () =>
      dst.setProperties(c.to, UNIFORM_PROPERTIES),
    );
  await copyTableMetadata(src, dst, c.from, c.to, c.desc, o, w);
  const functions = new FunctionCopier(src, dst, o.source_catalog, ctx.target.destinationCatalog, o.copy_comments);
  await copySecurity(src, dst, c.from, c.to, o.copy_security, functions);
  return { bytesCopied: c.bytesCopied, filesCopied: c.filesCopied, desc: c.desc, warnings: w.list };
}
