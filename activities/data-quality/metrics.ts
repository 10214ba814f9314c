import { randomUUID } from 'node:crypto';
import { parseFqn } from '../../platform/identifiers';
import type { Workspace } from '../../platform/port';
import type { Db } from '../../store/db';
import { metricBaseline, recordDqEvent, recordObservation, type DqAnomalyRow } from '../../store/data-quality/ops';
import { detectAnomaly, metricsQuery, type AnomalySettings } from './logic/anomaly';
import { ident, tableSql } from './logic/sql-text';

export interface Observation {
  column: string;
  metric: string;
  value: number;
}

/**
 * A table's metrics: row count, per column null rate and distinct count, min/max/mean of numeric columns (one
 * scan), and freshness_hours (hours since the table's last commit, from its history).
 */
export async function measureTable(ws: Workspace, tableFqn: string, now: Date): Promise<Observation[]> {
  const ref = parseFqn(tableFqn);
  const desc = await ws.describeTable(ref);
  const q = metricsQuery(
    tableSql(tableFqn)!,
    desc.columns.map((c) => ({ name: c.name, type: c.type })),
    ident,
  );
  const out = q.read((await ws.query(q.sql)).rows[0] ?? {});
  const [last] = await ws.tableHistory(ref, 1).catch(() => []);
  if (last) {
    const hours = (now.getTime() - Date.parse(last.timestamp)) / 3_600_000;
    if (Number.isFinite(hours))
      out.push({ column: '', metric: 'freshness_hours', value: Math.max(0, Math.round(hours * 1000) / 1000) });
  }
  return out;
}

/**
 * Records each observation against its rolling baseline (observations of the last `baselineDays` days); returns
 * the anomalies found. A critical anomaly is an incident (event + notification).
 */
export async function recordObservations(
  db: Db,
  tableFqn: string,
  observations: Observation[],
  settings: AnomalySettings,
  runId: string | null,
  now: Date,
): Promise<DqAnomalyRow[]> {
  const since = new Date(now.getTime() - settings.baselineDays * 86_400_000);
  const found: DqAnomalyRow[] = [];
  for (const o of observations) {
    const key = { tableFqn, columnName: o.column, metric: o.metric };
    const base = await metricBaseline(db, key, since);
    const d = detectAnomaly(o.value, base.values, base.falsePositives, settings);
    const anomaly = d.anomalous
      ? {
          anomalyId: `anom-${randomUUID().slice(0, 12)}`,
          observedValue: o.value,
          expectedMin: d.expectedMin,
          expectedMax: d.expectedMax,
          baselineMean: d.mean,
          baselineStddev: d.stddev,
          zScore: Number.isFinite(d.z) ? Math.round(d.z * 10_000) / 10_000 : 1e9,
          baselineSamples: d.samples,
          severity: d.severity!,
          status: 'open',
          runId,
          detectedAt: now,
        }
      : null;
    const row = await recordObservation(db, { ...key, value: o.value, runId, measuredAt: now }, anomaly);
    if (!row) continue;
    found.push(row);
    if (row.severity === 'critical') {
      const what = `${tableFqn}${o.column ? `.${o.column}` : ''} ${o.metric}`;
      await recordDqEvent(db, {
        type: 'anomaly_critical',
        tableFqn,
        message: `Critical anomaly: ${what} = ${o.value}, expected ${round(d.expectedMin)} to ${round(d.expectedMax)}`,
        payload: { anomaly_id: row.anomalyId, metric: o.metric, column: o.column, value: o.value, z_score: row.zScore },
      });
    }
  }
  return found;
}

const round = (v: number) => Math.round(v * 1000) / 1000;
