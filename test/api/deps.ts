import { Writable } from 'node:stream';
import pino from 'pino';
import type { AppDeps, TemporalHandle, WorkspaceOpener } from '../../api/deps';
import { createWorkspaceResolver } from '../../api/middleware/workspaces';
import { loadConfig, type ConfigFlags } from '../../config/load';
import type { Store } from '../../store/db';

/** Log lines written by the app under test, for assertions about what is (not) logged. */
export class LogCapture extends Writable {
  readonly lines: string[] = [];
  override _write(chunk: Buffer, _enc: string, done: () => void): void {
    this.lines.push(chunk.toString());
    done();
  }
  text(): string {
    return this.lines.join('');
  }
}

/**
 * AppDeps for API tests: the built-in configuration (environment ignored) plus `flags`, a real store and
 * optionally a real Temporal connection. `open` defaults to an opener that refuses (no workspace needed).
 */
export function testAppDeps(opts: {
  store: Store;
  temporal?: TemporalHandle | null;
  flags?: ConfigFlags;
  env?: NodeJS.ProcessEnv;
  open?: WorkspaceOpener;
  logs?: LogCapture;
}): AppDeps {
  const config = loadConfig({ env: opts.env ?? {}, flags: opts.flags ?? {} });
  const open: WorkspaceOpener = opts.open ?? (async () => Promise.reject(new Error('no workspace in this test')));
  return {
    config,
    store: opts.store,
    temporal: opts.temporal ?? null,
    logger: pino({ level: 'info' }, opts.logs ?? new LogCapture()),
    workspaces: createWorkspaceResolver(config, open),
    startedAt: new Date(),
  };
}
