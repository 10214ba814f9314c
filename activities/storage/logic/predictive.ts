/** Predictive optimization: the setting found in properties, and a recommendation from file sizes and vacuumable share. */

export type PredictiveSetting = 'enabled' | 'disabled' | 'inherited' | 'unknown';

/** A data file smaller than this counts as small (OPTIMIZE's target is far larger). */
export const SMALL_FILE_BYTES = 32 * 1024 * 1024;
/** Vacuumable share (percent of the table's bytes) from which VACUUM is recommended. */
export const VACUUM_PCT_THRESHOLD = 10;

/**
 * The explicit setting in a property map: a key naming predictive optimization (or optimizedAutoLayout) with a
 * true/enable or false/disable value; null when none says.
 */
export function settingOf(props: Record<string, string>): 'enabled' | 'disabled' | null {
  for (const [k, v] of Object.entries(props)) {
    if (!/predictive|optimizedautolayout/i.test(k)) continue;
    const value = v.trim().toLowerCase();
    if (['true', '1', 'enable', 'enabled', 'on'].includes(value)) return 'enabled';
    if (['false', '0', 'disable', 'disabled', 'off'].includes(value)) return 'disabled';
  }
  return null;
}

/**
 * The table's effective setting: its own property, else its schema's, else its catalog's (then `inherited`,
 * naming where from). With none: `disabled` on the local lakehouse (it has no predictive optimization) and
 * `unknown` on Databricks (the account or metastore default is not visible to a SQL warehouse).
 */
export function effectiveSetting(
  levels: { table: Record<string, string>; schema: Record<string, string>; catalog: Record<string, string> },
  names: { schema: string; catalog: string },
  platform: 'local' | 'databricks',
): { setting: PredictiveSetting; inheritedFrom: string | null; effective: 'enabled' | 'disabled' | null } {
  const own = settingOf(levels.table);
  if (own) return { setting: own, inheritedFrom: null, effective: own };
  const schema = settingOf(levels.schema);
  if (schema) return { setting: 'inherited', inheritedFrom: `schema ${names.schema}`, effective: schema };
  const catalog = settingOf(levels.catalog);
  if (catalog) return { setting: 'inherited', inheritedFrom: `catalog ${names.catalog}`, effective: catalog };
  return platform === 'local'
    ? { setting: 'disabled', inheritedFrom: null, effective: 'disabled' }
    : { setting: 'unknown', inheritedFrom: null, effective: null };
}

export type Recommendation = 'none' | 'optimize' | 'vacuum' | 'optimize_and_vacuum';

/**
 * What to run when predictive optimization does not: OPTIMIZE when the table has two or more data files averaging
 * under SMALL_FILE_BYTES; VACUUM when at least VACUUM_PCT_THRESHOLD percent of its bytes are vacuumable. A table
 * whose predictive optimization is enabled needs neither by hand.
 */
export function recommend(
  t: { numFiles: number; dataBytes: number; vacuumablePct: number },
  effective: 'enabled' | 'disabled' | null,
): { recommendation: Recommendation; reason: string; avgFileBytes: number } {
  const avgFileBytes = t.numFiles === 0 ? 0 : Math.round(t.dataBytes / t.numFiles);
  if (effective === 'enabled')
    return { recommendation: 'none', reason: 'predictive optimization runs OPTIMIZE and VACUUM', avgFileBytes };
  const optimize = t.numFiles >= 2 && avgFileBytes < SMALL_FILE_BYTES;
  const vacuum = t.vacuumablePct >= VACUUM_PCT_THRESHOLD;
  const reasons: string[] = [];
  if (optimize) reasons.push(`${t.numFiles} data files averaging ${avgFileBytes} bytes (small: under 32 MB)`);
  if (vacuum) reasons.push(`${t.vacuumablePct}% of its bytes are vacuumable`);
  const recommendation: Recommendation =
    optimize && vacuum ? 'optimize_and_vacuum' : optimize ? 'optimize' : vacuum ? 'vacuum' : 'none';
  return {
    recommendation,
    reason: reasons.length ? reasons.join('; ') : 'files are few or large, little to vacuum',
    avgFileBytes,
  };
}
