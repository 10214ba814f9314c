import { randomBytes } from 'node:crypto';

/** Clone job ids (also the clone workflow ids): `clone-YYYYMMDD-HHMMSS-xxxx`, UTC, four random hex digits. */
export function newCloneJobId(at: Date = new Date()): string {
  const iso = at.toISOString(); // 2026-11-21T10:15:00.000Z
  const date = iso.slice(0, 10).replaceAll('-', '');
  const time = iso.slice(11, 19).replaceAll(':', '');
  return `clone-${date}-${time}-${randomBytes(2).toString('hex')}`;
}

export const CLONE_JOB_ID = /^clone-\d{8}-\d{6}-[0-9a-f]{4}$/;
