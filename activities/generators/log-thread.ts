/**
 * A worker thread that builds log files for `LogThreads`: it receives a file's spec (with, when one is free, a
 * buffer to build in) and answers its bytes as a transferred ArrayBuffer, so no file is copied between threads,
 * with their sha256 (hashed here while the bytes are fresh, so the calling thread only writes them).
 */
import { createHash } from 'node:crypto';
import { parentPort } from 'node:worker_threads';
import { buildLogFile, type LogFileSpec } from './logic/logs';

export interface LogThreadTask {
  id: number;
  spec: Omit<LogFileSpec, 'reuse' | 'keepLines'>;
  reuse?: ArrayBuffer;
}

export type LogThreadAnswer =
  | { id: number; ok: true; bytes: ArrayBuffer; length: number; service: string; sha256: string }
  | { id: number; ok: false; error: string };

parentPort?.on('message', (task: LogThreadTask) => {
  try {
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
    parentPort!.postMessage(answer, [bytes]);
  } catch (error) {
    const answer: LogThreadAnswer = { id: task.id, ok: false, error: (error as Error)?.stack ?? String(error) };
    parentPort!.postMessage(answer);
  }
});
