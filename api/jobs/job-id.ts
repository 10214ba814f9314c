import { randomBytes } from 'node:crypto';
import { annotateJob } from '../../platform/observability/log-context';

/** Job ids (also the job workflow ids): `<type>-YYYYMMDD-HHMMSS-xxxx`, UTC, four random hex digits. */
export function newJobId(type: string, at: Date = new Date()): string {
  const iso = at.toISOString(); // 2026-11-21T10:15:00.000Z
  const date = iso.slice(0, 10).replaceAll('-', '');
  const time = iso.slice(11, 19).replaceAll(':', '');
  const id = `${type}-${date}-${time}-${randomBytes(2).toString('hex')}`;
  // The request that creates a job belongs to it from here on: its span, later statements and log lines.
  annotateJob(id, type);
  return id;
}

export const newCloneJobId = (at?: Date) => newJobId('clone', at);

export const CLONE_JOB_ID = /^clone-\d{8}-\d{6}-[0-9a-f]{4}$/;
