import { describe, expect, it } from 'vitest';
import { applyEvent, formatEta, initialLive } from './job-events';

describe('job events', () => {
  it('takes progress snapshots, skips replayed events and ends on the final event', () => {
    let s = applyEvent(initialLive, {
      type: 'status',
      status: 'running',
      seq: 1,
      ts: 't',
      level: 'info',
      message: 'status running',
    });
    s = applyEvent(s, {
      type: 'progress',
      status: 'running',
      schemas: { completed: 1, total: 3 },
      tables: { completed: 2, failed: 0, skipped: 0, total: 9 },
      eta_seconds: 70,
    });
    s = applyEvent(s, { type: 'status', status: 'running', seq: 1, ts: 't', level: 'info', message: 'status running' });
    expect(s.events).toHaveLength(1);
    expect(s.progress?.tables.total).toBe(9);
    s = applyEvent(s, {
      type: 'completed',
      status: 'completed',
      final: true,
      seq: 9,
      ts: 't',
      level: 'info',
      message: 'done',
    });
    expect(s).toMatchObject({ final: true, status: 'completed' });
    expect(formatEta(70)).toBe('1 min 10 s');
    expect(formatEta(null)).toBe('not known yet');
  });
});
