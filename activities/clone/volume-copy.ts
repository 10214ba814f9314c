import type { Workspace } from '../../platform/port';
import type { TableRef, VolumeInfo } from '../../platform/types';
import type { TargetContext } from '../../workflows/clone/engine-types';
import { checkCancelled } from './heartbeat';
import { copySecurable, Warnings } from './metadata-copy';

export interface VolumeOutcome {
  cloned: number;
  skipped: number;
  filesCopied: number;
  bytesCopied: number;
  warnings: string[];
}

/**
 * Volumes of one schema: created if missing, metadata copied, and — on a local target — their files copied.
 * A file already present with the same size is not copied again (a retried step resumes). Across
 * workspaces, files above volume_max_file_mb are skipped with a warning.
 */
export async function copyVolumes(
  src: Workspace,
  dst: Workspace,
  ctx: TargetContext,
  schema: string,
): Promise<VolumeOutcome> {
  const o = ctx.options;
  const w = new Warnings();
  const out: VolumeOutcome = { cloned: 0, skipped: 0, filesCopied: 0, bytesCopied: 0, warnings: w.list };
  let volumes = await src.listVolumes(o.source_catalog, schema);
  if (o.load_type === 'INCREMENTAL') {
    const have = new Set(
      (await dst.listVolumes(ctx.target.destinationCatalog, schema)).map((v) => v.name.toLowerCase()),
    );
    out.skipped = volumes.filter((v) => have.has(v.name.toLowerCase())).length;
    volumes = volumes.filter((v) => !have.has(v.name.toLowerCase()));
  }
  for (const v of volumes) {
    checkCancelled();
    const to: TableRef = { catalog: ctx.target.destinationCatalog, schema, name: v.name };
    if (v.volumeType === 'EXTERNAL')
      w.list.push(
        `volume ${schema}.${v.name}: external volume created as a managed volume (its location belongs to the source)`,
      );
    await dst.createVolume({
      ref: to,
      volumeType: 'MANAGED',
      comment: o.copy_comments ? v.comment : null,
      ifNotExists: true,
    });
    await copySecurable(
      src,
      dst,
      { type: 'VOLUME', catalog: o.source_catalog, schema, name: v.name },
      { type: 'VOLUME', ...to },
      o,
      w,
      `volume ${schema}.${v.name}`,
    );
    if (dst.kind === 'local') await copyFiles(src, dst, v, to, ctx, out);
    out.cloned += 1;
  }
  return out;
}

async function copyFiles(
  src: Workspace,
  dst: Workspace,
  v: VolumeInfo,
  to: TableRef,
  ctx: TargetContext,
  out: VolumeOutcome,
): Promise<void> {
  const limit = ctx.options.volume_max_file_mb * 1024 * 1024;
  const have = new Map((await dst.listVolumeFiles(to)).map((f) => [f.path, f.size]));
  for (const f of await src.listVolumeFiles(v)) {
    checkCancelled();
    if (ctx.crossWorkspace && f.size > limit) {
      out.warnings.push(
        `volume ${v.schema}.${v.name}: ${f.path} skipped (${f.size} bytes > volume_max_file_mb ${ctx.options.volume_max_file_mb})`,
      );
      continue;
    }
    if (have.get(f.path) === f.size) continue;
    await dst.writeVolumeFile(to, f.path, await src.readVolumeFile(v, f.path));
    out.filesCopied += 1;
    out.bytesCopied += f.size;
  }
}
