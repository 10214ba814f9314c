import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { buildLogFile, type LogLine } from './logic/logs';
import { itemBaseName, TYPE_FACTS } from './logic/plan';

export interface WriteLogFilesOptions {
  /** nginx_access, app_json, syslog or otel_trace. */
  type: string;
  seed: number;
  /** YYYY-MM-DD: the files end at its midnight (UTC). */
  asOf: string;
  daysBack: number;
  linesPerFile: number;
  /** Files to write, and the index of the first (default 0). */
  files: number;
  start?: number;
  /** Write into this folder (plain files)… */
  dir?: string;
  /** …or hand each file to this writer (a volume). */
  write?: (name: string, data: Buffer) => Promise<void>;
  /** Keep every line as a Log line row (the direct table). */
  keepLines?: boolean;
}

export interface WrittenLogFile {
  index: number;
  name: string;
  bytes: number;
  lines: number;
  sha256: string;
  service: string;
  rows: LogLine[] | null;
}

/**
 * Writes seeded log files of one type: `<type>-s<seed>-<nnnnn>.<ext>`, `linesPerFile` lines each, timestamps rising
 * through the `daysBack` days before as_of. The same options give the same bytes. Plain function: the generator
 * job calls it per chunk with a volume writer, and the benchmark calls it with a folder.
 */
export async function writeLogFiles(opts: WriteLogFilesOptions): Promise<WrittenLogFile[]> {
  if (!opts.dir && !opts.write) throw new Error('writeLogFiles needs dir or write');
  const ext = TYPE_FACTS[opts.type]?.extension;
  if (!ext) throw new Error(`unknown log type ${opts.type}`);
  if (opts.dir) await fs.mkdir(opts.dir, { recursive: true });
  const out: WrittenLogFile[] = [];
  const start = opts.start ?? 0;
  // One file's write is in flight while the next is generated; a failed write fails the call at the next file.
  let pending: Promise<void> | null = null;
  try {
    for (let index = start; index < start + opts.files; index++) {
      const name = `${itemBaseName(opts.type, opts.seed, index)}.${ext}`;
      // In a folder the file is opened first, so its write starts the moment its bytes exist.
      const handle = opts.dir ? await fs.open(path.join(opts.dir, name), 'w') : null;
      let file: ReturnType<typeof buildLogFile>;
      try {
        file = buildLogFile({
          type: opts.type,
          seed: opts.seed,
          asOf: opts.asOf,
          daysBack: opts.daysBack,
          linesPerFile: opts.linesPerFile,
          index,
          keepLines: opts.keepLines,
        });
      } catch (error) {
        await handle?.close();
        throw error;
      }
      const data = file.data;
      if (pending) {
        await pending.catch(async (error: unknown) => {
          await handle?.close();
          throw error;
        });
      }
      pending = handle ? writeWhole(handle, data) : opts.write!(name, data);
      pending.catch(() => undefined); // awaited below; this only keeps it from counting as unhandled meanwhile
      out.push({
        index,
        name,
        bytes: data.length,
        lines: opts.linesPerFile,
        sha256: createHash('sha256').update(data).digest('hex'),
        service: file.service,
        rows: file.lines,
      });
    }
  } catch (error) {
    await pending?.catch(() => undefined);
    throw error;
  }
  await pending;
  return out;
}

/** Writes a whole file through its open handle with one write call (repeated only if the system writes less). */
async function writeWhole(fh: FileHandle, data: Buffer): Promise<void> {
  try {
    let offset = 0;
    while (offset < data.length) offset += (await fh.write(data, offset, data.length - offset)).bytesWritten;
  } finally {
    await fh.close();
  }
}
