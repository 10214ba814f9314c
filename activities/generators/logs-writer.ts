import { webcrypto } from 'node:crypto';
import { promises as fs } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { type BuiltLogFile, logThreads, type LogThreads, threadSpec } from './log-threads';
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
  /**
   * Write into this folder (a local volume's, or any): each file under a temporary name containing `.tmp-`, renamed
   * when whole, so a reader never sees half a file…
   */
  dir?: string;
  /** …or hand each file to this writer (a remote volume); it is done with the bytes when its promise settles. */
  write?: (name: string, data: Buffer) => Promise<void>;
  /** Keep every line as a Log line row (the direct table). */
  keepLines?: boolean;
  /** Called as each file written into `dir` is whole (a throw fails the call once the files in flight end). */
  onFile?: () => void;
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
 * job calls it per chunk with a local volume's folder or a remote volume's writer, and the benchmark with a folder.
 * Files whose lines are not kept are built in parallel on the log threads: into a folder, each thread streams its
 * file there (built, hashed and written a cache-sized window at a time, `log-thread.ts`); to a writer, the file is
 * built and hashed whole in a thread and written meanwhile. Otherwise (rows kept, one file, one core) each file's
 * write and sha256 run on libuv's pool while the next file is built in this thread.
 */
export async function writeLogFiles(opts: WriteLogFilesOptions): Promise<WrittenLogFile[]> {
  if (!opts.dir && !opts.write) throw new Error('writeLogFiles needs dir or write');
  const ext = TYPE_FACTS[opts.type]?.extension;
  if (!ext) throw new Error(`unknown log type ${opts.type}`);
  if (opts.dir) await fs.mkdir(opts.dir, { recursive: true });
  const threads = !opts.keepLines && opts.files > 1 ? logThreads() : null;
  if (threads && opts.dir) return streamedInThreads(opts, opts.dir, ext, threads);
  return threads ? inThreads(opts, ext, threads) : inThisThread(opts, ext);
}

/** Each file built and written by a log thread straight into the folder (all threads busy until the last file). */
async function streamedInThreads(
  opts: WriteLogFilesOptions,
  dir: string,
  ext: string,
  threads: LogThreads,
): Promise<WrittenLogFile[]> {
  const start = opts.start ?? 0;
  const indexes = Array.from({ length: opts.files }, (_, i) => start + i);
  const settled = await Promise.allSettled(
    indexes.map(async (index) => {
      const entry = entryOf(opts, ext, index, 0, '');
      const file = await threads.buildTo(threadSpec(specOf(opts, index)), path.join(dir, entry.name));
      opts.onFile?.();
      return { ...entry, bytes: file.length, service: file.service, sha256: file.sha256 };
    }),
  );
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((s) => (s as PromiseFulfilledResult<WrittenLogFile>).value);
}

type Spec = Parameters<typeof buildLogFile>[0];

const specOf = (opts: WriteLogFilesOptions, index: number): Spec => ({
  type: opts.type,
  seed: opts.seed,
  asOf: opts.asOf,
  daysBack: opts.daysBack,
  linesPerFile: opts.linesPerFile,
  index,
  keepLines: opts.keepLines,
});

/** Writes one built file (off this thread): into `dir` under a temporary name renamed when whole, or to `write`. */
async function writeFile(opts: WriteLogFilesOptions, entry: WrittenLogFile, data: Buffer): Promise<void> {
  if (!opts.dir) return opts.write!(entry.name, data);
  const file = path.join(opts.dir, entry.name);
  const tmp = `${file}.tmp-${process.pid}-${entry.index}`;
  try {
    await writeWhole(await fs.open(tmp, 'w'), data);
    await fs.rename(tmp, file);
  } catch (error) {
    await fs.rm(tmp, { force: true });
    throw error;
  }
  opts.onFile?.();
}

/** Writes one built file and hashes it (both off this thread); the entry's sha256 is set when both ended. */
function emit(opts: WriteLogFilesOptions, entry: WrittenLogFile, data: Buffer): Promise<void> {
  const written = writeFile(opts, entry, data);
  return Promise.all([written, sha256Hex(data).then((hex) => void (entry.sha256 = hex))]).then(() => undefined);
}

const entryOf = (opts: WriteLogFilesOptions, ext: string, index: number, bytes: number, service: string) => ({
  index,
  name: `${itemBaseName(opts.type, opts.seed, index)}.${ext}`,
  bytes,
  lines: opts.linesPerFile,
  sha256: '',
  service,
  rows: null as LogLine[] | null,
});

/** Builds on the log threads, a window of files ahead, and writes each as it arrives, in order. */
async function inThreads(opts: WriteLogFilesOptions, ext: string, threads: LogThreads): Promise<WrittenLogFile[]> {
  const start = opts.start ?? 0;
  const end = start + opts.files;
  const builds = new Map<number, Promise<BuiltLogFile>>();
  const launch = (index: number) => {
    if (index >= end || builds.has(index)) return;
    const p = threads.build(threadSpec(specOf(opts, index)));
    p.catch(() => undefined); // awaited in order below
    builds.set(index, p);
  };
  const out: WrittenLogFile[] = [];
  const writes: Promise<void>[] = [];
  try {
    for (let i = start; i < Math.min(end, start + threads.size + 1); i++) launch(i);
    for (let index = start; index < end; index++) {
      const file = await builds.get(index)!;
      builds.delete(index);
      launch(index + threads.size + 1);
      const entry = { ...entryOf(opts, ext, index, file.data.length, file.service), sha256: file.sha256 };
      out.push(entry);
      const w = writeFile(opts, entry, file.data).finally(() => file.release());
      w.catch(() => undefined); // awaited below
      writes.push(w);
    }
  } finally {
    // Files built but not written (a write or a build failed first) hand their buffers back too.
    const unwritten = [...builds.values()].map((p) => p.then((file) => file.release()));
    await Promise.allSettled([...writes, ...unwritten]);
  }
  await Promise.all(writes);
  return out;
}

/** Builds in this thread (rows kept, one file, or one core): one file's write is in flight while the next is built. */
async function inThisThread(opts: WriteLogFilesOptions, ext: string): Promise<WrittenLogFile[]> {
  const out: WrittenLogFile[] = [];
  const start = opts.start ?? 0;
  // A failed write fails the call at the next file. Two buffers take turns: a file is built in the one whose write ended.
  let pending: Promise<void> | null = null;
  let spare: Buffer | undefined;
  let inFlight: Buffer | undefined;
  try {
    for (let index = start; index < start + opts.files; index++) {
      const file = buildLogFile({ ...specOf(opts, index), reuse: spare });
      if (pending) await pending;
      spare = inFlight;
      inFlight = file.buffer;
      const entry = { ...entryOf(opts, ext, index, file.data.length, file.service), rows: file.lines };
      out.push(entry);
      pending = emit(opts, entry, file.data);
      pending.catch(() => undefined); // awaited below; this only keeps it from counting as unhandled meanwhile
    }
  } catch (error) {
    await pending?.catch(() => undefined);
    throw error;
  }
  await pending;
  return out;
}

/** The sha256 of some bytes, hashed on libuv's thread pool (WebCrypto), so the caller's thread goes on meanwhile. */
async function sha256Hex(data: Buffer): Promise<string> {
  return Buffer.from(await webcrypto.subtle.digest('SHA-256', data)).toString('hex');
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
