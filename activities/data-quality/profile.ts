import { InvalidInputError } from '../../platform/errors';
import { parseFqn } from '../../platform/identifiers';
import type { Workspace } from '../../platform/port';
import type { DqProfileInput } from '../../schemas/data-quality-profiles';
import type { Store } from '../../store/db';
import { saveProfile } from '../../store/data-quality/profiles';
import { checkUserSql, type ColumnProfile, type Profile } from './logic';
import {
  columnKind,
  histogramSql,
  readHistogram,
  readStats,
  readTopValues,
  sourceSql,
  statsSql,
  topValuesSql,
  type ProfiledColumn,
} from './profile-sql';

/** Per-column queries (top values, histogram) run this many columns at a time. */
export const PROFILE_COLUMN_PARALLELISM = 4;

export interface ProfileResult extends Profile {
  profile_id: string;
  execution_time_ms: number;
}

/** The columns of what is profiled: the table's (from the metastore) or the query's (from a zero-row run). */
async function columnsOf(ws: Workspace, input: DqProfileInput, source: string): Promise<ProfiledColumn[]> {
  const raw = input.tableFqn
    ? (await ws.describeTable(parseFqn(input.tableFqn))).columns
    : (await ws.query(`SELECT * FROM ${source} LIMIT 0`)).columns;
  const wanted = input.options.columns;
  if (wanted) {
    const missing = wanted.filter((w) => !raw.some((c) => c.name.toLowerCase() === w.toLowerCase()));
    if (missing.length) throw new InvalidInputError(`options.columns: no column ${missing.join(', ')} to profile`);
  }
  return raw
    .filter((c) => !wanted || wanted.some((w) => w.toLowerCase() === c.name.toLowerCase()))
    .map((c) => ({ name: c.name, type: c.type, kind: columnKind(c.type) }));
}

/** Runs `fn` over `items`, at most `width` at once, keeping their order. */
async function inWaves<T, R>(items: T[], width: number, fn: (item: T, i: number) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, lane));
  return out;
}

/** Top values and histogram of one column, added to its stats. */
async function finishColumn(
  ws: Workspace,
  source: string,
  col: ProfiledColumn,
  stats: ColumnProfile,
  opts: DqProfileInput['options'],
): Promise<ColumnProfile> {
  const top = topValuesSql(source, col, opts.top_n);
  const topRows = top ? (await ws.query(top)).rows : [];
  let bins = stats.histogram.bins;
  if (col.kind === 'numeric' && typeof stats.min === 'number' && typeof stats.max === 'number') {
    const { min, max } = stats;
    bins =
      min === max
        ? [{ range_min: min, range_max: max, count: stats.count - stats.nulls }]
        : readHistogram(
            (await ws.query(histogramSql(source, col, min, max, opts.histogram_bins))).rows,
            min,
            max,
            opts.histogram_bins,
          );
  }
  return { ...stats, top_values: readTopValues(topRows), histogram: { bins } };
}

/**
 * Profiles a table (or a read-only query's result): row count, nulls, distinct, min/max/mean/stddev, length
 * statistics, histogram bins and top values per column. The counts come from one scan; each column's top
 * values and histogram follow, PROFILE_COLUMN_PARALLELISM columns at a time. Stored in dqx_profiles when asked.
 */
export async function profileSource(
  ws: Workspace,
  store: Store,
  input: DqProfileInput,
  now: () => number = Date.now,
): Promise<ProfileResult> {
  const started = now();
  if (!input.tableFqn && !input.sql) throw new InvalidInputError('a profile needs table_fqn or sql');
  if (input.sql) {
    const problem = checkUserSql(input.sql, 'query');
    if (problem) throw new InvalidInputError(`sql: ${problem}`);
  }
  const source = sourceSql(
    input.tableFqn ? { table: input.tableFqn } : { query: input.sql as string },
    input.options.sample_limit,
  );
  const columns = await columnsOf(ws, input, source);
  const [statsRow] = (await ws.query(statsSql(source, columns))).rows;
  const stats = readStats(statsRow ?? {}, columns);
  const profiled = await inWaves(columns, PROFILE_COLUMN_PARALLELISM, (col, i) =>
    finishColumn(ws, source, col, stats[i], input.options),
  );
  const profiledAt = new Date(now());
  const profile: ProfileResult = {
    profile_id: input.profileId,
    table_fqn: input.tableFqn ?? 'query',
    row_count: stats[0]?.count ?? Number(statsRow?.row_count ?? 0),
    columns: profiled,
    profiled_at: profiledAt.toISOString(),
    execution_time_ms: now() - started,
  };
  if (input.store)
    await saveProfile(store.db, {
      profileId: input.profileId,
      tableFqn: profile.table_fqn,
      rowCount: profile.row_count,
      columnCount: profiled.length,
      profile: profile as unknown as Record<string, unknown>,
      options: input.options,
      profiledAt,
      profiledBy: input.profiledBy,
    });
  return profile;
}
