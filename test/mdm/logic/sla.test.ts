import { BusinessCalendar, caseDueAt, slaState } from '../../../activities/mdm/logic/sla';

const d = (s: string) => new Date(s);

describe('stewardship SLA business days', () => {
  it('skips weekends: a match review opened on a Thursday is due the next Thursday', () => {
    const cal = new BusinessCalendar('');
    // 2026-11-19 is a Thursday: Fri, Mon, Tue, Wed, Thu → 5 business days.
    expect(caseDueAt(cal, 'match_review', d('2026-11-19T10:00:00Z')).toISOString()).toBe('2026-11-26T10:00:00.000Z');
  });

  it('skips the calendar holidays too (US Thanksgiving 2026-11-26)', () => {
    const cal = new BusinessCalendar('US');
    expect(caseDueAt(cal, 'match_review', d('2026-11-19T10:00:00Z')).toISOString()).toBe('2026-11-27T10:00:00.000Z');
    // conflict resolution (3): Mon 23 → Tue, Wed, (Thu holiday), Fri 27
    expect(caseDueAt(cal, 'conflict_resolution', d('2026-11-23T09:00:00Z')).toISOString()).toBe(
      '2026-11-27T09:00:00.000Z',
    );
    // suspected duplicate (7) across Christmas and New Year: Wed 23 Dec → 24, (25), 28, 29, 30, 31, (1 Jan), 4, 5
    expect(caseDueAt(cal, 'suspected_duplicate', d('2026-12-23T12:00:00Z')).toISOString()).toBe(
      '2027-01-05T12:00:00.000Z',
    );
  });

  it('the two types without a figure in the specification take 5 days', () => {
    const cal = new BusinessCalendar('');
    const opened = d('2026-11-16T08:00:00Z'); // Monday
    expect(caseDueAt(cal, 'negative_match_candidate', opened).toISOString()).toBe('2026-11-23T08:00:00.000Z');
    expect(caseDueAt(cal, 'stewardship_request', opened).toISOString()).toBe('2026-11-23T08:00:00.000Z');
  });

  it('a case opened on a Saturday starts counting on Monday', () => {
    const cal = new BusinessCalendar('');
    expect(caseDueAt(cal, 'conflict_resolution', d('2026-11-21T15:00:00Z')).toISOString()).toBe(
      '2026-11-26T00:00:00.000Z',
    );
  });

  it('sla_state: on_track, at_risk after 70 % of business time, overdue after due_at; weekends do not count', () => {
    const cal = new BusinessCalendar('');
    const opened = d('2026-11-16T00:00:00Z'); // Monday; 5 days → due Monday 23rd
    const due = caseDueAt(cal, 'match_review', opened);
    expect(due.toISOString()).toBe('2026-11-23T00:00:00.000Z');
    expect(slaState(cal, opened, due, d('2026-11-19T00:00:00Z'))).toBe('on_track'); // 3 of 5 days
    expect(slaState(cal, opened, due, d('2026-11-20T00:00:00Z'))).toBe('at_risk'); // 4 of 5
    expect(slaState(cal, opened, due, d('2026-11-22T23:00:00Z'))).toBe('at_risk'); // Sunday: still 5 of 5 not reached
    expect(slaState(cal, opened, due, d('2026-11-23T00:00:00Z'))).toBe('overdue');
  });

  it('an unknown calendar is refused', () => {
    expect(() => new BusinessCalendar('XX')).toThrow(/mdm.sla_calendar/);
  });
});
