/**
 * A local lakehouse thread: answers port calls (`ThreadCall`) on workspaces it opens by their options. Started by
 * `LocalThreadPool`; the calls it may run are `THREADED_METHODS` (plain data in, plain data out).
 */
import { parentPort } from 'node:worker_threads';
import { LocalWorkspace } from '../workspace';
import { THREADED_METHODS } from './methods';
import { errorToWire, type ThreadAnswer, type ThreadCall } from './wire';

const opened = new Map<string, LocalWorkspace>();

function workspaceFor(opts: ThreadCall['opts']): LocalWorkspace {
  const key = JSON.stringify([opts.root, opts.user ?? null, opts.groups ?? null]);
  let ws = opened.get(key);
  if (!ws) {
    ws = new LocalWorkspace(opts);
    opened.set(key, ws);
  }
  return ws;
}

async function answer(call: ThreadCall): Promise<ThreadAnswer> {
  try {
    if (!THREADED_METHODS.has(call.method)) throw new Error(`${call.method} is not run on a local lakehouse thread`);
    const ws = workspaceFor(call.opts) as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
    return { id: call.id, ok: true, value: await ws[call.method](...call.args) };
  } catch (err) {
    return { id: call.id, ok: false, error: errorToWire(err) };
  }
}

// Answers that arrive in one turn of the event loop go back together, as the calls came.
let outbox: ThreadAnswer[] = [];
function reply(a: ThreadAnswer): void {
  outbox.push(a);
  if (outbox.length === 1)
    setImmediate(() => {
      const answers = outbox;
      outbox = [];
      try {
        parentPort!.postMessage(answers);
      } catch {
        // A value that cannot be cloned fails its own call, not the others (nor the thread).
        parentPort!.postMessage(answers.map(cloneable));
      }
    });
}

function cloneable(a: ThreadAnswer): ThreadAnswer {
  try {
    structuredClone(a);
    return a;
  } catch (err) {
    return { id: a.id, ok: false, error: errorToWire(err) };
  }
}

parentPort!.on('message', (calls: ThreadCall[]) => {
  for (const call of calls) void answer(call).then(reply);
});
