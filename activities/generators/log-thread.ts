/**
 * A worker thread that builds log files for `LogThreads`. A file with a `path` is streamed there: built in a small
 * window that is hashed and written (to a temporary name, renamed when whole) each time it fills, while its bytes
 * are still in the core's cache, so no file-sized buffer exists and the calling thread does nothing per byte.
 * Otherwise the file is built whole (in the buffer the task brings, when one is free) and answered as a
 * transferred ArrayBuffer, never copied between threads, with its sha256.
 */
import { createHash } from 'node:crypto';
import { closeSync, openSync, renameSync, rmSync, writeSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { buildLogFile, SINK_WINDOW, type LogFileSpec } from './logic/logs';

export interface LogThreadTask {
  id: number;
  spec: Omit<LogFileSpec, 'reuse' | 'keepLines' | 'sink'>;
  reuse?: ArrayBuffer;
  /** Write the file here (the folder exists) instead of answering its bytes. */
  path?: string;
}

export type LogThreadAnswer =
  | { id: number; ok: true; bytes: ArrayBuffer | null; length: number; service: string; sha256: string }
  | { id: number; ok: false; error: string };

/** This thread's window for streamed files, kept between files. */
const window = Buffer.allocUnsafe(SINK_WINDOW);

function streamed(task: LogThreadTask & { path: string }): LogThreadAnswer {
  const tmp = `${task.path}.tmp-${process.pid}-${task.id}`;
  // File descriptors are the process's, shared by every thread: once closed, this number may at once be another
  // thread's file, so it is closed exactly once (a second close after a failed rename shut a sibling's file).
  let fd: number | null = openSync(tmp, 'w');
  const hash = createHash('sha256');
  let file: ReturnType<typeof buildLogFile>;
  try {
    const out = fd;
    file = buildLogFile({
      ...task.spec,
      reuse: window,
      sink: (bytes) => {
        hash.update(bytes);
        for (let at = 0; at < bytes.length;) at += writeSync(out, bytes, at, bytes.length - at);
      },
    });
    fd = null;
    closeSync(out);
    renameSync(tmp, task.path);
  } catch (error) {
    if (fd !== null) closeSync(fd);
    rmSync(tmp, { force: true });
    throw error;
  }
  return { id: task.id, ok: true, bytes: null, length: file.bytes, service: file.service, sha256: hash.digest('hex') };
}

function whole(task: LogThreadTask): { answer: LogThreadAnswer; transfer: ArrayBuffer[] } {
  const file = buildLogFile({ ...task.spec, reuse: task.reuse ? Buffer.from(task.reuse) : undefined });
  // A buffer of this size owns its ArrayBuffer from offset 0 (Node pools only small ones); copy if it ever does not.
  const own = file.buffer.byteOffset === 0 && file.buffer.buffer.byteLength === file.buffer.length;
  const bytes = own ? (file.buffer.buffer as ArrayBuffer) : new Uint8Array(file.data).buffer;
  const sha256 = createHash('sha256').update(file.data).digest('hex');
  const answer: LogThreadAnswer = {
    id: task.id,
    ok: true,
    bytes,
    length: file.data.length,
    service: file.service,
    sha256,
  };
  return { answer, transfer: [bytes] };
}

parentPort?.on('message', (task: LogThreadTask) => {
  try {
    if (task.path) parentPort!.postMessage(streamed(task as LogThreadTask & { path: string }));
    else {
      const { answer, transfer } = whole(task);
      parentPort!.postMessage(answer, transfer);
    }
  } catch (error) {
    const answer: LogThreadAnswer = { id: task.id, ok: false, error: (error as Error)?.stack ?? String(error) };
    parentPort!.postMessage(answer);
  }
});
