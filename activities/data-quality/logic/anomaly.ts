/**
 * Anomaly detection (pure): a metric is anomalous when it leaves mean ± k·σ of its baseline (the observations of
 * the rolling window, population σ), once the baseline has at least `minSamples` values. Values marked false
 * positive widen the expected range to cover them, so the same value is not flagged again.
 */

export type AnomalySeverity = 'info' | 'warning' | 'critical';
export type AnomalyStatus = 'open' | 'acknowledged' | 'resolved' | 'false_positive';

export interface AnomalySettings {
  /** Width of the band in standard deviations (default 3). */
  k: number;
  /** Fewer baseline values than this: nothing is flagged (default 14). */
  minSamples: number;
  /** The rolling window, in days (default 30). */
  baselineDays: number;
}

export const DEFAULT_ANOMALY_SETTINGS: AnomalySettings = { k: 3, minSamples: 14, baselineDays: 30 };

export interface Detection {
  anomalous: boolean;
  severity: AnomalySeverity | null;
  mean: number;
  stddev: number;
  /** |value − mean| / σ; Infinity when σ is 0 and the value differs from the mean. */
  z: number;
  expectedMin: number;
  expectedMax: number;
  samples: number;
}

/** Relative slack for float noise when σ is 0 (a constant baseline). */
const EPS = 1e-9;

/**
 * Severity by distance beyond the band: up to k + 0.5 σ info, up to k + 1 σ warning, k + 1 σ and beyond critical
 * (k = 3: 3–3.5 σ info, 3.5–4 σ warning, 4 σ or more critical).
 */
export function severityOf(z: number, k: number): AnomalySeverity {
  if (z >= k + 1) return 'critical';
  if (z >= k + 0.5) return 'warning';
  return 'info';
}

export function detectAnomaly(
  value: number,
  baseline: number[],
  falsePositives: number[],
  settings: AnomalySettings = DEFAULT_ANOMALY_SETTINGS,
): Detection {
  const n = baseline.length;
  const mean = n ? baseline.reduce((s, v) => s + v, 0) / n : value;
  const variance = n ? baseline.reduce((s, v) => s + (v - mean) ** 2, 0) / n : 0;
  const stddev = Math.sqrt(variance);
  const slack = EPS * Math.max(1, Math.abs(mean));
  const diff = Math.abs(value - mean);
  const z = stddev > slack ? diff / stddev : diff > slack ? Infinity : 0;
  let expectedMin = mean - settings.k * stddev;
  let expectedMax = mean + settings.k * stddev;
  for (const fp of falsePositives) {
    expectedMin = Math.min(expectedMin, fp);
    expectedMax = Math.max(expectedMax, fp);
  }
  const outside = value < expectedMin - slack || value > expectedMax + slack;
  const anomalous = n >= settings.minSamples && outside;
  return {
    anomalous,
    severity: anomalous ? severityOf(z, settings.k) : null,
    mean,
    stddev,
    z,
    expectedMin,
    expectedMax,
    samples: n,
  };
}

/** The spec's transitions: open → acknowledged → resolved, open → resolved, open → false_positive. */
const TRANSITIONS: Record<string, { from: AnomalyStatus[]; to: AnomalyStatus }> = {
  acknowledge: { from: ['open'], to: 'acknowledged' },
  resolve: { from: ['open', 'acknowledged'], to: 'resolved' },
  false_positive: { from: ['open'], to: 'false_positive' },
};

export type AnomalyAction = 'acknowledge' | 'resolve' | 'false_positive';

/** The next status, or null when the action is not allowed from `status`. */
export function nextAnomalyStatus(status: string, action: AnomalyAction): AnomalyStatus | null {
  const t = TRANSITIONS[action];
  return t.from.includes(status as AnomalyStatus) ? t.to : null;
}

const NUMERIC = /^(tinyint|smallint|int|integer|bigint|long|short|byte|float|double|real|decimal|numeric)\b/i;
const SIMPLE =
  /^(tinyint|smallint|int|integer|bigint|long|short|byte|float|double|real|decimal|numeric|string|varchar|char|boolean|date|timestamp|timestamp_ntz)\b/i;

export interface MetricsQuery {
  sql: string;
  /** How to read the query's one row back as metrics. */
  read(row: Record<string, unknown>): { column: string; metric: string; value: number }[];
}

/**
 * One scan for a run's metrics: row_count; per column null_rate and (simple types) distinct_count; per numeric
 * column min, max and mean. `ident` and `table` are the engine's quoting helpers (passed in to keep this pure).
 */
export function metricsQuery(
  tableSql: string,
  columns: { name: string; type: string }[],
  ident: (name: string) => string,
): MetricsQuery {
  const parts = ['count(*) AS _lw_rows'];
  const reads: { column: string; metric: string; alias: string; rate?: boolean }[] = [];
  columns.forEach((c, i) => {
    const q = ident(c.name);
    parts.push(`count(*) - count(${q}) AS _lw_n${i}`);
    reads.push({ column: c.name, metric: 'null_rate', alias: `_lw_n${i}`, rate: true });
    if (SIMPLE.test(c.type)) {
      parts.push(`count(DISTINCT ${q}) AS _lw_d${i}`);
      reads.push({ column: c.name, metric: 'distinct_count', alias: `_lw_d${i}` });
    }
    if (NUMERIC.test(c.type)) {
      parts.push(`min(${q}) AS _lw_min${i}`, `max(${q}) AS _lw_max${i}`, `avg(${q}) AS _lw_avg${i}`);
      reads.push(
        { column: c.name, metric: 'min', alias: `_lw_min${i}` },
        { column: c.name, metric: 'max', alias: `_lw_max${i}` },
        { column: c.name, metric: 'mean', alias: `_lw_avg${i}` },
      );
    }
  });
  return {
    sql: `SELECT ${parts.join(', ')} FROM ${tableSql}`,
    read(row) {
      const rows = Number(row._lw_rows ?? 0);
      const out = [{ column: '', metric: 'row_count', value: rows }];
      for (const r of reads) {
        const raw = row[r.alias];
        if (raw === null || raw === undefined) continue;
        const v = Number(raw);
        if (!Number.isFinite(v)) continue;
        if (r.rate) {
          if (rows > 0) out.push({ column: r.column, metric: r.metric, value: v / rows });
        } else out.push({ column: r.column, metric: r.metric, value: v });
      }
      return out;
    },
  };
}
