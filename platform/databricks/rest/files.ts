import { InvalidInputError, NotFoundError } from '../../errors';
import type { TableRef, VolumeFile } from '../../types';
import type { RestClient } from './http';

/** Files API (api/2.0/fs) for Unity Catalog volumes: `/Volumes/<catalog>/<schema>/<volume>/<path>`. */
function volumePath(ref: TableRef, path = ''): string {
  const parts = path.split('/').filter((p) => p !== '');
  if (parts.some((p) => p === '..' || p === '.'))
    throw new InvalidInputError(`invalid volume path ${JSON.stringify(path)}`);
  return ['Volumes', ref.catalog, ref.schema, ref.name, ...parts].map(encodeURIComponent).join('/');
}

interface DirectoryEntry {
  path: string;
  is_directory?: boolean;
  file_size?: number;
  name?: string;
}

export class FilesApi {
  constructor(private readonly http: RestClient) {}

  /** Every file under the volume, recursively, with paths relative to the volume root. */
  async list(ref: TableRef): Promise<VolumeFile[]> {
    const root = `/${volumePath(ref)}`;
    const out: VolumeFile[] = [];
    const pending = [''];
    while (pending.length > 0) {
      const dir = pending.shift() as string;
      const entries = await this.http.listAll<DirectoryEntry>(
        `/api/2.0/fs/directories/${volumePath(ref, dir)}`,
        'contents',
      );
      for (const e of entries) {
        const decoded = decodeURIComponent(e.path);
        const rel = decoded.startsWith(`${decodeURIComponent(root)}/`)
          ? decoded.slice(decodeURIComponent(root).length + 1)
          : decoded;
        if (e.is_directory) pending.push(rel);
        else out.push({ path: rel, size: e.file_size ?? 0 });
      }
    }
    return out.sort((a, b) => a.path.localeCompare(b.path));
  }

  read(ref: TableRef, path: string): Promise<Buffer> {
    if (!path) throw new InvalidInputError('path is required');
    return this.http.request<Buffer>('GET', `/api/2.0/fs/files/${volumePath(ref, path)}`, { raw: true });
  }

  async write(ref: TableRef, path: string, data: Buffer): Promise<void> {
    if (!path) throw new InvalidInputError('path is required');
    await this.http.request<Buffer>('PUT', `/api/2.0/fs/files/${volumePath(ref, path)}`, {
      raw: true,
      body: data,
      query: { overwrite: true },
    });
  }

  /** Deletes a file, or a folder and everything under it (files first, then folders deepest first). */
  async deletePath(ref: TableRef, path: string): Promise<void> {
    if (!path) throw new InvalidInputError('path is required');
    const folders: string[] = [];
    const pending = [path];
    let isFolder = true;
    while (pending.length > 0) {
      const dir = pending.shift() as string;
      let entries: DirectoryEntry[];
      try {
        entries = await this.http.listAll<DirectoryEntry>(
          `/api/2.0/fs/directories/${volumePath(ref, dir)}`,
          'contents',
        );
      } catch (err) {
        if (!isNotFound(err)) throw err;
        if (dir === path) isFolder = false;
        continue;
      }
      folders.push(dir);
      const root = decodeURIComponent(`/${volumePath(ref)}`);
      for (const e of entries) {
        const decoded = decodeURIComponent(e.path);
        const rel = decoded.startsWith(`${root}/`) ? decoded.slice(root.length + 1) : decoded;
        if (e.is_directory) pending.push(rel);
        else await this.deleteFile(ref, rel);
      }
    }
    if (!isFolder) return this.deleteFile(ref, path);
    for (const dir of folders.reverse())
      await this.http.request('DELETE', `/api/2.0/fs/directories/${volumePath(ref, dir)}`).catch((err: unknown) => {
        if (!isNotFound(err)) throw err;
      });
  }

  private async deleteFile(ref: TableRef, path: string): Promise<void> {
    await this.http.request('DELETE', `/api/2.0/fs/files/${volumePath(ref, path)}`).catch((err: unknown) => {
      if (!isNotFound(err)) throw err;
    });
  }
}

function isNotFound(err: unknown): boolean {
  return err instanceof NotFoundError;
}
