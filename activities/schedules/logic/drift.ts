/**
 * drift_check: a scheduled clone runs only when the source changed since the last scheduled clone. The source's
 * state is its tables' Delta versions (`schema.table` → version), read before each run and recorded with the
 * clone that completed.
 */
export type SourceVersions = Record<string, number>;

export interface DriftDecision {
  changed: boolean;
  /** Tables whose version moved, that appeared or that went away, named `schema.table`. */
  changedTables: string[];
  added: string[];
  removed: string[];
}

/** No recorded clone yet (`previous` null) counts as changed: the first run always clones. */
export function driftDecision(previous: SourceVersions | null, current: SourceVersions): DriftDecision {
  if (!previous) return { changed: true, changedTables: [], added: Object.keys(current).sort(), removed: [] };
  const added = Object.keys(current)
    .filter((t) => !(t in previous))
    .sort();
  const removed = Object.keys(previous)
    .filter((t) => !(t in current))
    .sort();
  const changedTables = Object.keys(current)
    .filter((t) => t in previous && previous[t] !== current[t])
    .sort();
  return { changed: added.length + removed.length + changedTables.length > 0, changedTables, added, removed };
}

/** The log line and notification text of a run skipped by drift_check, with the last clone's timestamps. */
export function skipMessage(s: {
  name: string;
  sourceCatalog: string;
  tables: number;
  lastJobId: string | null;
  lastStartedAt: Date | null;
  lastCompletedAt: Date | null;
}): string {
  const when = (d: Date | null) => (d ? d.toISOString() : 'unknown');
  return (
    `Scheduled clone ${s.name} skipped: source catalog ${s.sourceCatalog} unchanged since the last scheduled clone ` +
    `${s.lastJobId ?? ''} (started ${when(s.lastStartedAt)}, completed ${when(s.lastCompletedAt)}); ` +
    `${s.tables} table${s.tables === 1 ? '' : 's'} at the recorded versions`
  );
}

/** Why a run that found changes clones (for its log line). */
export function changeSummary(d: DriftDecision): string {
  const parts = [
    d.changedTables.length ? `changed: ${d.changedTables.join(', ')}` : '',
    d.added.length ? `new: ${d.added.join(', ')}` : '',
    d.removed.length ? `gone: ${d.removed.join(', ')}` : '',
  ].filter(Boolean);
  return parts.join('; ') || 'first scheduled clone';
}
