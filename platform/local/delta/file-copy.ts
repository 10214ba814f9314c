import { constants as fsConstants, lstatSync, promises as fs } from 'node:fs';
import { CopyHelper, NoSystemCopyError } from './copy-helper';

const helper = new CopyHelper();

/** Files at least this big go to the system `cp`; a process start (a few ms) is noise next to their copy. */
export const SYSTEM_COPY_MIN_BYTES = 8 * 1024 * 1024;

let systemCopy: boolean | null = process.platform === 'linux' ? null : false;

/**
 * Copies one file to a new path; an existing `dest` is an EEXIST error. Big files on Linux go through GNU `cp
 * --reflink=auto`: it clones where the file system can and otherwise makes one in-kernel
 * copy_file_range call into a freshly created file. Node's `fs.copyFile` makes the same call but first
 * truncates the new file, and on ext4 a truncate-then-write file is flushed to disk when it is closed
 * (auto_da_alloc): four 180 MB copies at once took about twice as long as with `cp` on this project's
 * CI machine. The `cp` processes start from a small helper process (copy-helper.ts), not from the worker.
 * Anything else — small files, other systems, no usable `cp` — uses `fs.copyFile`, which
 * also clones where it can.
 */
export async function copyFileFast(src: string, dest: string, size: number): Promise<void> {
  if (size >= SYSTEM_COPY_MIN_BYTES && systemCopy !== false) {
    // cp would overwrite; the in-process copy refuses (COPYFILE_EXCL). Callers pass fresh temp names.
    if (exists(dest)) throw Object.assign(new Error(`EEXIST: file already exists, copy '${dest}'`), { code: 'EEXIST' });
    try {
      await helper.copy(src, dest);
      systemCopy = true;
      return;
    } catch (err) {
      // No `cp`, not GNU's, a dead helper or a real problem: fs.copyFile below reports the real ones. If it
      // succeeds where `cp` itself failed, `cp` is not usable here and this process stops trying it.
      await fs.rm(dest, { force: true });
      await fs.copyFile(src, dest, fsConstants.COPYFILE_FICLONE | fsConstants.COPYFILE_EXCL);
      if (err instanceof NoSystemCopyError || (err instanceof Error && err.message.startsWith('cp: ')))
        systemCopy = false;
      return;
    }
  }
  await fs.copyFile(src, dest, fsConstants.COPYFILE_FICLONE | fsConstants.COPYFILE_EXCL);
}

function exists(file: string): boolean {
  try {
    lstatSync(file);
    return true;
  } catch {
    return false;
  }
}
