import { promises as fs } from 'node:fs';
import path from 'node:path';
import { InvalidInputError, NotFoundError } from '../errors';
import type { TableRef, VolumeFile } from '../types';
import type { LocalContext } from './workspace-context';

/** Files inside a volume, addressed by `/`-separated paths relative to the volume root (no `..`). */
async function volumeRoot(ctx: LocalContext, ref: TableRef): Promise<string> {
  const entry = await ctx.store.getEntry('volumes', ctx.ref(ref, 'volume name'));
  return entry.storageLocation!;
}

function resolveInside(root: string, rel: string): string {
  if (typeof rel !== 'string' || !rel.trim()) throw new InvalidInputError('volume file path is required');
  const clean = rel.replace(/^\/+/, '');
  const parts = clean.split('/');
  if (parts.some((p) => p === '..' || p === '' || p === '.' || p.includes('\\') || p.includes('\0'))) {
    throw new InvalidInputError(`invalid volume file path ${JSON.stringify(rel)}`);
  }
  return path.join(root, ...parts);
}

export async function listVolumeFiles(ctx: LocalContext, ref: TableRef): Promise<VolumeFile[]> {
  const root = await volumeRoot(ctx, ref);
  const out: VolumeFile[] = [];
  const walk = async (dir: string, prefix: string) => {
    const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const e of entries) {
      if (e.name.includes('.tmp-')) continue;
      const rel = prefix ? `${prefix}/${e.name}` : e.name;
      if (e.isDirectory()) await walk(path.join(dir, e.name), rel);
      else out.push({ path: rel, size: (await fs.stat(path.join(dir, e.name))).size });
    }
  };
  await walk(root, '');
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

export async function readVolumeFile(ctx: LocalContext, ref: TableRef, rel: string): Promise<Buffer> {
  const file = resolveInside(await volumeRoot(ctx, ref), rel);
  try {
    return await fs.readFile(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT')
      throw new NotFoundError(`file ${rel} not found in volume ${ref.catalog}.${ref.schema}.${ref.name}`);
    throw err;
  }
}

export async function writeVolumeFile(ctx: LocalContext, ref: TableRef, rel: string, data: Buffer): Promise<void> {
  if (!Buffer.isBuffer(data)) throw new InvalidInputError('volume file data must be a Buffer');
  const file = resolveInside(await volumeRoot(ctx, ref), rel);
  await fs.mkdir(path.dirname(file), { recursive: true });
  const tmp = `${file}.tmp-${process.pid}-${Math.random().toString(36).slice(2)}`;
  await fs.writeFile(tmp, data);
  await fs.rename(tmp, file);
}

/** The folder of a volume path on disk, created if missing (for writers that put whole files there themselves). */
export async function localVolumeFolder(ctx: LocalContext, ref: TableRef, rel: string): Promise<string> {
  const folder = resolveInside(await volumeRoot(ctx, ref), rel);
  await fs.mkdir(folder, { recursive: true });
  return folder;
}

export async function deleteVolumePath(ctx: LocalContext, ref: TableRef, rel: string): Promise<void> {
  const target = resolveInside(await volumeRoot(ctx, ref), rel);
  await fs.rm(target, { recursive: true, force: true });
}

/** The absolute folder of a volume path (for the engine to read); the path is checked like every volume path. */
export async function volumeFolder(ctx: LocalContext, ref: TableRef, rel: string): Promise<string> {
  return resolveInside(await volumeRoot(ctx, ref), rel);
}
