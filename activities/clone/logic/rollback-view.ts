import type { RollbackLogListing } from '../../../store/clone/safety-rollback';
import { countEntries } from '../rollback/plan';

/** API shape of a rollback log in listings: what it recorded, by kind, and how its last rollback went. */
export function rollbackLogView(l: RollbackLogListing) {
  const result = (l.target?.result ?? null) as { restored?: number; dropped?: number; failed?: number } | null;
  return {
    log_id: l.log.id,
    job_id: l.log.jobId,
    source_catalog: l.target?.sourceCatalog ?? null,
    destination_catalog: l.log.destinationCatalog,
    target: l.target?.targetLabel ?? null,
    status: l.log.status,
    created_at: l.log.createdAt.toISOString(),
    completed_at: l.log.completedAt?.toISOString() ?? null,
    counts: countEntries(l.entries),
    last_rollback: result
      ? { restored: result.restored ?? 0, dropped: result.dropped ?? 0, failed: result.failed ?? 0 }
      : null,
  };
}
