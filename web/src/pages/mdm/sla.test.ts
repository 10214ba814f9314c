import { describe, expect, test } from 'vitest';
import { slaClock, step, valueColumns, valuesDiffer } from './sla';

describe('stewardship queue logic', () => {
  const now = Date.parse('2026-01-05T10:00:00Z');
  test('the SLA clock says how long until due, or how long overdue', () => {
    expect(slaClock('2026-01-07T13:30:00Z', now)).toBe('due in 2 d 3 h');
    expect(slaClock('2026-01-05T12:15:00Z', now)).toBe('due in 2 h 15 min');
    expect(slaClock('2026-01-05T09:50:00Z', now)).toBe('overdue by 10 min');
  });
  test('a match review compares its weakest pair; conflicts have no per-record values', () => {
    const a = { system: 'crm', record_id: '1' };
    const b = { system: 'erp', record_id: '2' };
    const c = { system: 'web', record_id: '3' };
    expect(valueColumns({ type: 'match_review', records: [a, b, c], details: { weakest_pair: [b, c] } })).toEqual([
      b,
      c,
    ]);
    expect(valueColumns({ type: 'suspected_duplicate', records: [a, b], details: null })).toEqual([a, b]);
    expect(valueColumns({ type: 'conflict_resolution', records: [a, b], details: null })).toBeNull();
  });
  test('values differ ignoring case and spaces; j and k stay inside the list', () => {
    expect(valuesDiffer(['Ann Lee ', 'ann lee'])).toBe(false);
    expect(valuesDiffer(['ann', null])).toBe(true);
    expect(step(0, 3, 'k')).toBe(0);
    expect(step(2, 3, 'j')).toBe(2);
    expect(step(1, 3, 'j')).toBe(2);
  });
});
