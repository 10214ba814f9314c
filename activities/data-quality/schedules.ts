import type { Store } from '../../store/db';
import { enabledChecks, getCheck, tablesWithEnabledChecks } from '../../store/data-quality/checks';
import { getSchedule, recordDqEvent } from '../../store/data-quality/ops';
import type { DqRunInput } from '../../schemas/data-quality';

/** What one firing of a DQ schedule runs: tables (a dq run), a suite validation, or nothing (with why). */
export type ScheduledPlan =
  { kind: 'tables'; input: DqRunInput } | { kind: 'suite'; suite: string } | { kind: 'none'; reason: string };

/**
 * The firing's plan from the schedule row: schedule_type table (its enabled checks), checks (the check ids,
 * grouped by table), all (every table with enabled checks) or suite. Run ids are `<run id>-<n>` per table.
 */
export async function planScheduledRun(store: Store, scheduleId: string, runId: string): Promise<ScheduledPlan> {
  const s = await getSchedule(store.db, scheduleId);
  if (!s) return { kind: 'none', reason: `schedule ${scheduleId} no longer exists` };
  if (s.scheduleType === 'suite')
    return s.suiteId ? { kind: 'suite', suite: s.suiteId } : { kind: 'none', reason: 'no suite_id' };
  let tables: { tableFqn: string; checkIds?: string[] }[] = [];
  if (s.scheduleType === 'table' && s.tableFqn) {
    if ((await enabledChecks(store.db, s.tableFqn)).length) tables = [{ tableFqn: s.tableFqn }];
  } else if (s.scheduleType === 'checks') {
    const byTable = new Map<string, string[]>();
    for (const id of s.checkIds ?? []) {
      const c = await getCheck(store.db, id);
      if (c?.enabled) byTable.set(c.tableFqn, [...(byTable.get(c.tableFqn) ?? []), id]);
    }
    tables = [...byTable].map(([tableFqn, checkIds]) => ({ tableFqn, checkIds }));
  } else if (s.scheduleType === 'all') {
    tables = (await tablesWithEnabledChecks(store.db)).map((tableFqn) => ({ tableFqn }));
  }
  if (tables.length === 0) return { kind: 'none', reason: `no enabled checks for schedule ${s.name}` };
  return {
    kind: 'tables',
    input: {
      jobId: runId,
      scope: s.scheduleType === 'table' ? s.tableFqn! : s.scheduleType,
      tables: tables.map((t, i) => ({ runId: `${runId}-${i + 1}`, ...t })),
      parallelism: 4,
      executedBy: `schedule:${s.name}`,
    },
  };
}

/** A failed scheduled run is an incident: a typed event and a notification. */
export async function recordScheduledRunFailure(
  store: Store,
  e: { scheduleId: string; runId: string; error: string },
): Promise<void> {
  const s = await getSchedule(store.db, e.scheduleId);
  await recordDqEvent(store.db, {
    type: 'scheduled_run_failed',
    tableFqn: s?.tableFqn ?? null,
    jobId: e.runId,
    message: `Scheduled DQ run ${e.runId} of ${s?.name ?? e.scheduleId} failed: ${e.error}`,
    payload: { schedule_id: e.scheduleId, run_id: e.runId, error: e.error },
  });
}
