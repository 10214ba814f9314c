import { InvalidInputError, NotFoundError } from '../../errors';
import type { TimeTravel } from '../../types';
import type { CommitInfoAction } from './actions';
import { readCheckpoint } from './checkpoint';
import { commitMtime, listLog, readCommit } from './log';
import { applyActions, cloneState, commitInfoOf, emptyState, finishState, type TableState } from './state';
import { checkTimeTravel, parseTimestamp } from './time-travel';

export interface CommitMeta {
  timestamp: number;
  info: CommitInfoAction | null;
}

/**
 * Replays a table's log into states. Commit files are immutable, so what was read once is cached: the
 * latest state is advanced incrementally and commitInfo per version is remembered.
 */
export class LogReader {
  private latest: TableState | null = null;
  private readonly commits = new Map<number, CommitMeta>();

  constructor(readonly dir: string) {}

  async latestVersion(): Promise<number> {
    const { commits } = await listLog(this.dir);
    if (commits.length === 0) throw new NotFoundError(`no Delta table at ${this.dir}`);
    return commits[commits.length - 1];
  }

  /** The state at `version` (default latest). */
  async stateAt(version?: number): Promise<TableState> {
    const listing = await listLog(this.dir);
    if (listing.commits.length === 0) throw new NotFoundError(`no Delta table at ${this.dir}`);
    const latest = listing.commits[listing.commits.length - 1];
    if (this.latest && this.latest.version > latest) {
      // The folder was replaced by a younger table (dropped and re-created): nothing cached still holds.
      this.latest = null;
      this.commits.clear();
    }
    const target = version ?? latest;
    if (target > latest || target < 0) {
      throw new InvalidInputError(
        `version: cannot time travel ${this.dir} to version ${target}; available versions: [${listing.commits[0]}, ${latest}]`,
      );
    }
    const checkpoint = [...listing.checkpoints].reverse().find((c) => c <= target);
    let state: ReturnType<typeof emptyState>;
    let from: number;
    if (
      this.latest &&
      this.latest.version <= target &&
      (checkpoint === undefined || this.latest.version >= checkpoint)
    ) {
      state = cloneState(this.latest);
      from = this.latest.version + 1;
    } else if (checkpoint !== undefined) {
      state = emptyState();
      applyActions(state, await readCheckpoint(this.dir, checkpoint));
      from = checkpoint + 1;
    } else {
      if (listing.commits[0] !== 0)
        throw new NotFoundError(
          `Delta log of ${this.dir} starts at version ${listing.commits[0]} without a checkpoint`,
        );
      state = emptyState();
      from = 0;
    }
    const versions: number[] = [];
    for (let v = from; v <= target; v++) versions.push(v);
    const parsed = await mapLimit(versions, 32, (v) => readCommit(this.dir, v));
    for (let i = 0; i < versions.length; i++) {
      applyActions(state, parsed[i]);
      this.remember(versions[i], commitInfoOf(parsed[i]));
    }
    const result = finishState(state, target, this.dir);
    if (target === latest) this.latest = cloneState(result);
    return result;
  }

  private remember(version: number, info: CommitInfoAction | null): void {
    if (info && typeof info.timestamp === 'number') this.commits.set(version, { timestamp: info.timestamp, info });
  }

  /** commitInfo and timestamp of one version (commit file mtime when there is no commitInfo). */
  async commitMeta(version: number): Promise<CommitMeta> {
    const cached = this.commits.get(version);
    if (cached) return cached;
    const info = commitInfoOf(await readCommit(this.dir, version));
    this.remember(version, info);
    const meta = this.commits.get(version) ?? { timestamp: await commitMtime(this.dir, version), info };
    this.commits.set(version, meta);
    return meta;
  }

  /** TIMESTAMP AS OF: the latest commit whose timestamp ≤ t. */
  async versionAt(timestampText: string): Promise<number> {
    const t = parseTimestamp(timestampText);
    const listing = await listLog(this.dir);
    if (listing.commits.length === 0) throw new NotFoundError(`no Delta table at ${this.dir}`);
    for (let i = listing.commits.length - 1; i >= 0; i--) {
      if ((await this.commitMeta(listing.commits[i])).timestamp <= t) return listing.commits[i];
    }
    const first = await this.commitMeta(listing.commits[0]);
    throw new InvalidInputError(
      `timestamp: '${timestampText}' is before the earliest version of ${this.dir} (${new Date(first.timestamp).toISOString()})`,
    );
  }

  async resolve(at?: TimeTravel): Promise<number | undefined> {
    checkTimeTravel(at);
    if (at?.timestamp !== undefined) return this.versionAt(at.timestamp);
    return at?.version;
  }
}

/** Runs `fn` over items with at most `limit` in flight, keeping order. */
export async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
    }
  });
  await Promise.all(workers);
  return out;
}
