import type { CloneJobInput, CloneProgress, CloneSummary } from './definitions';
import type { SchemaProgress } from './signals';
import type { Totals } from './engine-types';
import { addWarnings, COUNTER_KEYS, emptyTotals } from '../../activities/clone/logic/totals';

/** What the job workflow carries across continue-as-new. Pure helpers; no workflow APIs here. */
export interface TargetState {
  label: string;
  /** null until prepareTarget ran. */
  schemas: string[] | null;
  nextSchema: number;
  totals: Totals;
  error: string | null;
  startedAtMs: number;
  finishedAtMs: number | null;
}

export interface JobState {
  startedAtMs: number;
  targets: TargetState[];
  schemasDone: number;
  abortReason: string | null;
  schemaErrors: string[];
}

export function initialState(input: CloneJobInput, nowMs: number): JobState {
  return {
    startedAtMs: nowMs,
    targets: input.targets.map((t) => ({
      label: t.label,
      schemas: null,
      nextSchema: 0,
      totals: emptyTotals(),
      error: null,
      startedAtMs: nowMs,
      finishedAtMs: null,
    })),
    schemasDone: 0,
    abortReason: null,
    schemaErrors: [],
  };
}

export function progressOf(
  state: JobState,
  running: Map<string, SchemaProgress>,
  status: CloneProgress['status'],
  phase: string,
): CloneProgress {
  let completed = 0,
    failed = 0,
    skipped = 0,
    bytes = 0,
    total = 0,
    schemasTotal = 0;
  for (const t of state.targets) {
    completed += t.totals.tables_cloned;
    failed += t.totals.tables_failed;
    skipped += t.totals.tables_skipped;
    bytes += t.totals.bytes_copied;
    schemasTotal += t.schemas?.length ?? 0;
  }
  total = completed + failed + skipped;
  for (const p of running.values()) {
    completed += p.completed;
    failed += p.failed;
    skipped += p.skipped;
    bytes += p.bytes;
    total += p.planned;
  }
  return {
    status,
    phase,
    schemas: { completed: state.schemasDone, total: schemasTotal },
    tables: { completed, failed, skipped, total: Math.max(total, completed + failed + skipped) },
    bytesCopied: bytes,
    startedAt: new Date(state.startedAtMs).toISOString(),
  };
}

/** max_duration_min / max_tables, checked between schemas. */
export function budgetExceeded(input: CloneJobInput, state: JobState, nowMs: number): string | null {
  const o = input.options;
  const elapsedMin = (nowMs - Date.parse(input.createdAt || new Date(state.startedAtMs).toISOString())) / 60_000;
  if (o.max_duration_min !== undefined && elapsedMin >= o.max_duration_min) {
    return `max_duration_min exceeded: ran ${elapsedMin.toFixed(1)} min, limit ${o.max_duration_min}`;
  }
  const touched = state.targets.reduce(
    (n, t) => n + t.totals.tables_cloned + t.totals.tables_failed + t.totals.tables_skipped,
    0,
  );
  if (o.max_tables !== undefined && touched >= o.max_tables)
    return `max_tables reached: ${touched} tables touched, limit ${o.max_tables}`;
  return null;
}

type Part = Omit<CloneSummary, 'per_target' | 'jobId'>;

/** "2 tables failed (sales.orders: <the platform's message>; …)": counts and the first causes, no paths. */
export function failureText(t: Totals): string {
  const parts = [];
  if (t.tables_failed) parts.push(`${t.tables_failed} table${t.tables_failed === 1 ? '' : 's'}`);
  if (t.objects_failed) parts.push(`${t.objects_failed} other object${t.objects_failed === 1 ? '' : 's'}`);
  const what = `${parts.join(' and ') || 'objects'} failed`;
  const errors = t.errors ?? [];
  return errors.length ? `${what}: ${errors.join('; ')}` : what;
}

function targetSummary(input: CloneJobInput, t: TargetState, nowMs: number, aborted: string | null): Part {
  const failed = t.error !== null || t.totals.tables_failed > 0 || t.totals.objects_failed > 0;
  const status = aborted ? 'aborted' : failed ? 'failed' : 'completed';
  const error = t.error ?? aborted ?? (failed ? failureText(t.totals) : undefined);
  const { objects_failed, errors: _errors, ...counts } = t.totals;
  return {
    ...counts,
    status,
    error,
    objects_failed,
    mode: input.options.load_type.toLowerCase() as Part['mode'],
    duration_seconds: Math.round(((t.finishedAtMs ?? nowMs) - t.startedAtMs) / 100) / 10,
  };
}

export function buildSummary(input: CloneJobInput, state: JobState, nowMs: number): CloneSummary {
  const parts = state.targets.map((t) => targetSummary(input, t, nowMs, state.abortReason));
  const total = emptyTotals();
  for (const t of state.targets) {
    for (const k of COUNTER_KEYS) total[k] += t.totals[k];
    for (const [f, n] of Object.entries(t.totals.formats)) total.formats[f] = (total.formats[f] ?? 0) + n;
    addWarnings(
      total,
      t.totals.warnings.map((w) => (input.targets.length > 1 ? `${t.label}: ${w}` : w)),
    );
  }
  addWarnings(total, state.schemaErrors);
  const anyFailed = parts.some((p) => p.status === 'failed');
  const { objects_failed, errors: _errors, ...counts } = total;
  const summary: CloneSummary = {
    jobId: input.jobId,
    ...counts,
    objects_failed,
    status: state.abortReason ? 'aborted' : anyFailed ? 'failed' : 'completed',
    mode: input.targets.length > 1 ? 'fanout' : (input.options.load_type.toLowerCase() as CloneSummary['mode']),
    duration_seconds: Math.round((nowMs - state.startedAtMs) / 100) / 10,
  };
  if (state.abortReason) summary.error = state.abortReason;
  else if (anyFailed)
    summary.error = parts
      .map((p, i) => (!p.error ? '' : input.targets.length > 1 ? `${state.targets[i].label}: ${p.error}` : p.error))
      .filter(Boolean)
      .join('; ');
  if (input.targets.length > 1) {
    const ok = parts.filter((p) => p.status === 'completed').length;
    summary.per_target = Object.fromEntries(parts.map((p, i) => [state.targets[i].label, p]));
    summary.target_count = parts.length;
    summary.succeeded_targets = ok;
    summary.failed_targets = parts.length - ok;
    summary.target_status = ok === parts.length ? 'success' : ok === 0 ? 'failed' : 'partial';
  }
  return summary;
}
