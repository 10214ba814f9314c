import type { LocalWorkspace } from '../workspace';
import type { DemoScale } from './seed';

/**
 * Extra small tables for the medium (≈100 tables) and large (≥1,000 tables) scales: schemas `mart_NN` of 20
 * daily-snapshot tables each, one CTAS commit per table, a few at a time.
 */
const PER_SCHEMA = 20;

export function fillerSchemas(scale: DemoScale): string[] {
  const count = scale === 'medium' ? 4 : scale === 'large' ? 50 : 0;
  return Array.from({ length: count }, (_, i) => `mart_${String(i + 1).padStart(2, '0')}`);
}

export async function seedFillerTables(
  ws: LocalWorkspace,
  catalog: string,
  schemas: string[],
  tick: () => void,
): Promise<{ tables: number; rows: number }> {
  const jobs: { schema: string; name: string; n: number }[] = [];
  for (const [s, schema] of schemas.entries()) {
    await ws.createSchema({ catalog, name: schema, comment: 'Generated data mart snapshots' });
    for (let t = 1; t <= PER_SCHEMA; t++)
      jobs.push({ schema, name: `snapshot_${String(t).padStart(3, '0')}`, n: 5 + ((s * PER_SCHEMA + t) % 20) });
  }
  let next = 0;
  let rows = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const job = jobs[next++];
      await ws.createTableAs({
        ref: { catalog, schema: job.schema, name: job.name },
        comment: `Daily snapshot ${job.name}`,
        query: `SELECT CAST(i AS BIGINT) AS id, DATE '2024-01-01' + CAST(i AS INTEGER) AS snapshot_date, CAST(hash(i) % 1000 AS DOUBLE) AS metric, 'segment_' || (i % 4) AS segment FROM range(1, ${job.n + 1}) AS r(i)`,
      });
      rows += job.n;
      tick();
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  return { tables: jobs.length, rows };
}
