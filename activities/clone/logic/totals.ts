import type { ObjectStepResult } from '../schema-activities';
import type { TableResult } from '../../../workflows/clone/definitions';
import type { Totals } from '../../../workflows/clone/engine-types';

/** Pure counter arithmetic shared by the schema and job workflows. Warnings are capped to keep history small. */
export const MAX_WARNINGS = 200;

export function emptyTotals(): Totals {
  return {
    tables_cloned: 0,
    tables_failed: 0,
    tables_skipped: 0,
    views_cloned: 0,
    functions_cloned: 0,
    volumes_cloned: 0,
    bytes_copied: 0,
    files_copied: 0,
    formats: {},
    warnings: [],
    objects_failed: 0,
  };
}

export function addWarnings(t: Totals, warnings: string[]): void {
  for (const w of warnings) {
    if (t.warnings.length < MAX_WARNINGS) t.warnings.push(w);
    else if (t.warnings.length === MAX_WARNINGS) t.warnings.push('… more warnings in the job log');
  }
}

/** How many failures (with their cause) a job keeps for its error text; the rest are in the run log. */
export const MAX_ERRORS = 3;

export function addErrors(t: Totals, errors: string[]): void {
  for (const e of errors) {
    t.errors ??= [];
    if (t.errors.length < MAX_ERRORS) t.errors.push(e);
  }
}

export function addTable(t: Totals, r: TableResult): void {
  if (r.status === 'cloned') {
    t.tables_cloned += 1;
    t.bytes_copied += r.bytesCopied;
    t.files_copied += r.filesCopied;
    const fmt = (r.format ?? 'DELTA').toUpperCase();
    t.formats[fmt] = (t.formats[fmt] ?? 0) + 1;
  } else if (r.status === 'failed') {
    t.tables_failed += 1;
    addErrors(t, [`${r.schema}.${r.table}: ${r.error ?? 'failed'}`]);
  } else t.tables_skipped += 1;
  addWarnings(t, r.warnings ?? []);
}

export function addObjects(t: Totals, kind: 'views' | 'functions' | 'volumes', r: ObjectStepResult): void {
  t[`${kind}_cloned`] += r.cloned;
  t.objects_failed += r.failed;
  if (r.failed > 0)
    addErrors(
      t,
      r.warnings.filter((w) => / failed: /.test(w)),
    );
  t.bytes_copied += r.bytesCopied;
  t.files_copied += r.filesCopied;
  addWarnings(t, r.warnings);
}

/** The numeric counters of Totals, summed when totals are merged. */
export const COUNTER_KEYS = [
  'tables_cloned',
  'tables_failed',
  'tables_skipped',
  'views_cloned',
  'functions_cloned',
  'volumes_cloned',
  'bytes_copied',
  'files_copied',
  'objects_failed',
] as const;

export function mergeTotals(into: Totals, from: Totals): void {
  for (const k of COUNTER_KEYS) {
    into[k] += from[k];
  }
  for (const [f, n] of Object.entries(from.formats)) into.formats[f] = (into.formats[f] ?? 0) + n;
  addWarnings(into, from.warnings);
  addErrors(into, from.errors ?? []);
}

/**
 * Like Promise.all, but waits for every promise to settle before rethrowing the first failure: on
 * cancellation, a workflow must not close while sibling activities or children are still stopping.
 */
export async function settleAll(promises: Promise<unknown>[]): Promise<void> {
  const results = await Promise.allSettled(promises);
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
}
