import { InvalidInputError } from '../../errors';
import type { TimeTravel } from '../../types';

/**
 * Parses a TIMESTAMP AS OF value: ISO 8601 or a Databricks literal ('2024-01-01', '2024-01-01 10:00:00').
 * Text without a zone is UTC (the Databricks default session time zone).
 */
export function parseTimestamp(text: string): number {
  let t = text.trim();
  if (/^\d{4}-\d{2}-\d{2}$/.test(t)) t += 'T00:00:00';
  t = t.replace(/^(\d{4}-\d{2}-\d{2}) /, '$1T');
  if (!/(Z|[+-]\d{2}:?\d{2})$/i.test(t)) t += 'Z';
  const ms = Date.parse(t);
  if (!/^\d{4}-\d{2}-\d{2}T/.test(t) || Number.isNaN(ms)) {
    throw new InvalidInputError(`timestamp: '${text}' is not a valid timestamp`);
  }
  return ms;
}

/** Validates a time-travel request before anything is read. */
export function checkTimeTravel(at: TimeTravel | undefined): void {
  if (!at) return;
  if (at.version !== undefined && at.timestamp !== undefined) {
    throw new InvalidInputError('time travel: give either version or timestamp, not both');
  }
  if (at.version !== undefined && (!Number.isInteger(at.version) || at.version < 0)) {
    throw new InvalidInputError(`version: ${at.version} is not a non-negative integer`);
  }
  if (at.timestamp !== undefined) parseTimestamp(at.timestamp);
}
