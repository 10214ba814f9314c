import type { CalendarSpec } from '@temporalio/client';
import { cronToCalendars, CronTranslationError, intervalMs, toRanges } from '../../activities/schedules/logic/cron';
import { connectTestEnv } from '../helpers/temporal';
import type { TestWorkflowEnvironment } from '@temporalio/testing';

/**
 * Quartz (and standard) cron expressions, translated to Temporal calendar specs, fire at the instants a table
 * written by hand expects. The instants come from the real Temporal server: each case creates a paused Schedule
 * with the translated spec, starting at the case's reference time, and reads the next fire times the server
 * computed (describe().info.nextActionTimes).
 */
const cases: { cron: string; dialect?: 'quartz' | 'standard'; tz?: string; from: string; expect: string[] }[] = [
  {
    cron: '0 0 12 ? * MON-FRI', // noon on weekdays; 2030-01-04 is a Friday
    from: '2030-01-04T00:00:00Z',
    expect: ['2030-01-04T12:00:00Z', '2030-01-07T12:00:00Z', '2030-01-08T12:00:00Z'],
  },
  {
    cron: '30 15 10 ? * 6#3', // Quartz 6 = Friday: the third Friday of each month at 10:15:30
    from: '2030-01-01T00:00:00Z',
    expect: ['2030-01-18T10:15:30Z', '2030-02-15T10:15:30Z', '2030-03-15T10:15:30Z'],
  },
  {
    cron: '0 0 0 L * ?', // last day of every month, February of a leap year included
    from: '2032-01-15T00:00:00Z',
    expect: ['2032-01-31T00:00:00Z', '2032-02-29T00:00:00Z', '2032-03-31T00:00:00Z', '2032-04-30T00:00:00Z'],
  },
  {
    cron: '0 0 0 L * ?', // ... and of a common year
    from: '2031-02-01T00:00:00Z',
    expect: ['2031-02-28T00:00:00Z', '2031-03-31T00:00:00Z'],
  },
  {
    cron: '0 0 6 ? * 6L', // last Friday of the month
    from: '2030-01-01T00:00:00Z',
    expect: ['2030-01-25T06:00:00Z', '2030-02-22T06:00:00Z', '2030-03-29T06:00:00Z'],
  },
  {
    cron: '0/20 * * * * ?', // seconds field: every 20 seconds from 0 (the start instant itself counts)
    from: '2030-01-01T00:00:00Z',
    expect: ['2030-01-01T00:00:00Z', '2030-01-01T00:00:20Z', '2030-01-01T00:00:40Z'],
  },
  {
    cron: '15 0 2 1 * ?', // day-of-month set, day-of-week "?": 02:00:15 on the 1st
    from: '2030-01-01T03:00:00Z',
    expect: ['2030-02-01T02:00:15Z', '2030-03-01T02:00:15Z'],
  },
  {
    cron: '0 0 9 ? * 1', // Quartz 1 = Sunday (2030-01-06 is a Sunday), not Monday as in standard cron
    from: '2030-01-01T00:00:00Z',
    expect: ['2030-01-06T09:00:00Z', '2030-01-13T09:00:00Z'],
  },
  {
    cron: '0 30 8 ? JAN,JUL MON 2031', // seventh field: the year
    from: '2030-01-01T00:00:00Z',
    expect: ['2031-01-06T08:30:00Z', '2031-01-13T08:30:00Z'],
  },
  {
    cron: '0 0 9 * * ?', // a time zone: 09:00 in New York is 14:00 UTC in winter
    tz: 'America/New_York',
    from: '2030-01-01T00:00:00Z',
    expect: ['2030-01-01T14:00:00Z', '2030-01-02T14:00:00Z'],
  },
  {
    cron: '0 12 13 * 5', // standard cron: the 13th OR a Friday (either day field matches)
    dialect: 'standard',
    from: '2030-12-01T00:00:00Z',
    expect: ['2030-12-06T12:00:00Z', '2030-12-13T12:00:00Z', '2030-12-20T12:00:00Z'],
  },
];

const refused: { cron: string; dialect?: 'quartz' | 'standard'; says: RegExp }[] = [
  { cron: '0 0 12 * * MON', says: /exactly one of day-of-month .* must be "\?"/ },
  { cron: '0 0 12 ? * ?', says: /exactly one of day-of-month/ },
  { cron: '0 0 12 * *', says: /6 or 7 fields/ },
  { cron: '0 0 25 * * ?', says: /hour/ },
  { cron: '0 0 0 15W * ?', says: /nearest weekday/ },
  { cron: '0 0 0 L-2 * ?', says: /L-n/ },
  { cron: '0 12 ? * 1', dialect: 'standard', says: /Quartz-only/ },
];

let env: TestWorkflowEnvironment;
beforeAll(async () => {
  env = await connectTestEnv();
});
afterAll(async () => {
  await env?.teardown();
});

async function firesOf(calendars: CalendarSpec[], from: string, n: number, timezone?: string): Promise<string[]> {
  const scheduleId = `cron-table-${Math.random().toString(36).slice(2, 10)}`;
  const handle = await env.client.schedule.create({
    scheduleId,
    spec: { calendars, startAt: new Date(from), timezone },
    action: { type: 'startWorkflow', workflowType: 'never-started', taskQueue: 'cron-table-none', args: [] },
    state: { paused: true, note: 'cron table test' },
  });
  try {
    const d = await handle.describe();
    return d.info.nextActionTimes.slice(0, n).map((t) => t.toISOString().replace('.000Z', 'Z'));
  } finally {
    await handle.delete();
  }
}

test.each(cases)('$cron fires at the expected instants', async (c) => {
  const calendars = cronToCalendars(c.cron, c.dialect ?? 'quartz');
  expect(await firesOf(calendars, c.from, c.expect.length, c.tz)).toEqual(c.expect);
});

test.each(refused)('$cron is refused, saying why', (c) => {
  expect(() => cronToCalendars(c.cron, c.dialect ?? 'quartz')).toThrow(CronTranslationError);
  expect(() => cronToCalendars(c.cron, c.dialect ?? 'quartz')).toThrow(c.says);
});

test('intervals and ranges', () => {
  expect(intervalMs('15m')).toBe(900_000);
  expect(intervalMs('6h')).toBe(21_600_000);
  expect(intervalMs('1d')).toBe(86_400_000);
  expect(intervalMs('0h')).toBeNull();
  expect(intervalMs('1w')).toBeNull();
  expect(toRanges([1, 2, 3, 7, 9])).toEqual([
    { start: 1, end: 3, step: 1 },
    { start: 7, end: 7, step: 1 },
    { start: 9, end: 9, step: 1 },
  ]);
  expect(toRanges([0, 15, 30, 45])).toEqual([{ start: 0, end: 45, step: 15 }]);
});
