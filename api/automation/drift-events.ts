import { driftKey, schemaDriftEvent } from '../../activities/automation/logic/producers';
import type { MonitorTable } from '../../schemas/analysis';
import type { Db } from '../../store/db';
import { eventsCommitted, latestEventOf, recordEvent } from '../../store/automation/events';

/**
 * The monitor's schema drift as `schema.drift` events: one per destination table whose columns differ from its
 * source, unless the newest drift event of that table already describes the same changes (a monitor polled every
 * few minutes reports one drift once, and again only when it changes). Answers how many events it wrote.
 */
export async function recordSchemaDrift(
  db: Db,
  pair: { source_catalog: string; destination_catalog: string },
  tables: MonitorTable[],
): Promise<number> {
  const drifted = tables.filter((t) => t.verdict === 'schema_drift' && t.column_changes.length);
  if (!drifted.length) return 0;
  const written = await db.transaction(async (tx) => {
    let n = 0;
    for (const t of drifted) {
      const event = schemaDriftEvent({
        sourceCatalog: pair.source_catalog,
        destinationCatalog: pair.destination_catalog,
        table: t.table,
        changes: t.column_changes,
      });
      const last = await latestEventOf(tx, 'schema.drift', event.tableFqn!);
      if (last?.payload?.drift_key === driftKey(t.column_changes)) continue;
      await recordEvent(tx, event);
      n++;
    }
    return n;
  });
  if (written) eventsCommitted();
  return written;
}
