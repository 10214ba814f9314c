import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { limitsAt, delayBeforeNextStart } from '../../activities/clone/logic/throttle-limits';
import { clockParts, isTimeZone, presetInForce } from '../../activities/clone/logic/throttle-schedule';
import { runThrottled } from '../../workflows/clone/throttle-pool';
import { cloneRequestSchema, applyCloneDefaults } from '../../schemas/clone';
import { SimClock } from './sim-clock';
import { claimTableStart } from '../../store/clone/throttle-starts';
import { createTestStore } from '../helpers/db';

const opts = (throttle?: Record<string, unknown>) =>
  applyCloneDefaults(cloneRequestSchema.parse({ source_catalog: 's', destination_catalog: 'd', throttle }));

// 2026-11-21 is a Saturday. Windows are read in UTC unless the job names a zone.
const at = (day: number, hh: number, mm = 0) => new Date(Date.UTC(2026, 10, 16 + day - 1, hh, mm)); // day 1 = Monday 16th

test('presets have the spec numbers for workers, parallel tables and rps', () => {
  const n = (preset: string) => {
    const l = limitsAt(opts({ preset }), at(1, 12));
    return [l.max_workers, l.parallel_tables, l.max_rps];
  };
  expect(n('low')).toEqual([2, 1, 2]);
  expect(n('medium')).toEqual([4, 2, 5]);
  expect(n('high')).toEqual([8, 4, 10]);
  expect(n('max')).toEqual([16, 8, 0]);
});

test('without throttle settings the job keeps its own limits', () => {
  expect(limitsAt(opts(), at(1, 12))).toMatchObject({
    preset: null,
    max_workers: 4,
    parallel_tables: 1,
    max_rps: 0,
    tables_per_minute: 0,
  });
});

test('schedule windows choose the preset in force by time of day and day name; first match wins', () => {
  const schedule = [
    { time: '22:00-06:00', preset: 'max' },
    { time: 'sat,sunday', preset: 'high' },
    { time: 'mon-fri', preset: 'low' },
  ];
  const o = opts({ preset: 'medium', schedule });
  expect(limitsAt(o, at(1, 23, 30)).preset).toBe('max'); // Monday night, wraps past midnight
  expect(limitsAt(o, at(2, 5, 59)).preset).toBe('max');
  expect(limitsAt(o, at(2, 6, 0)).preset).toBe('low'); // end is exclusive
  expect(limitsAt(o, at(6, 12)).preset).toBe('high'); // Saturday
  expect(limitsAt(o, at(7, 12)).preset).toBe('high'); // Sunday
  expect(
    limitsAt(opts({ preset: 'medium', schedule: [{ time: '01:00-02:00', preset: 'max' }] }), at(3, 12)).preset,
  ).toBe('medium');
  expect(presetInForce([{ time: 'fri-mon', preset: 'low' }], { day: 0, minutes: 0 })).toBe('low');
  expect(presetInForce([{ time: 'fri-mon', preset: 'low' }], { day: 3, minutes: 0 })).toBeNull();
});

test('custom limits override the preset, and bad windows are rejected at the request', () => {
  const l = limitsAt(opts({ preset: 'low', parallel_tables: 3, tables_per_minute: 10 }), at(1, 12));
  expect(l).toMatchObject({ max_workers: 2, parallel_tables: 3, max_rps: 2, tables_per_minute: 10 });
  const bad = cloneRequestSchema.safeParse({
    source_catalog: 's',
    destination_catalog: 'd',
    throttle: { schedule: [{ time: '25:00-01:00', preset: 'low' }] },
  });
  expect(bad.success).toBe(false);
  expect(JSON.stringify(bad.error?.issues[0].path)).toBe('["throttle","schedule",0,"time"]');
  expect(
    cloneRequestSchema.safeParse({ source_catalog: 's', destination_catalog: 'd', throttle: { preset: 'turbo' } })
      .success,
  ).toBe(false);
});

test('tables_per_minute is a hard cap over any 60 s window', async () => {
  expect(delayBeforeNextStart([0, 1000, 2000], 3, 5000)).toBe(55_000);
  const clock = new SimClock(0);
  const starts: number[] = [];
  const limits = () => ({ parallel_tables: 8, tables_per_minute: 3 });
  await clock.run(
    runThrottled(
      [...Array(7).keys()],
      limits,
      async () => {
        starts.push(clock.now());
        await clock.sleep(1000);
      },
      clock,
    ),
  );
  expect(starts).toEqual([0, 0, 0, 60_000, 60_000, 60_000, 120_000]);
});

test('parallel_tables caps concurrency and a window change takes effect for the next table started', async () => {
  // 05:59 with low (1 table at a time) until 06:00, then max (8).
  const start = Date.UTC(2026, 10, 16, 5, 59);
  const o = opts({ preset: 'max', schedule: [{ time: '00:00-06:00', preset: 'low' }] });
  const clock = new SimClock(start);
  let active = 0;
  const seen: { at: number; active: number }[] = [];
  const results = await clock.run(
    runThrottled(
      [...Array(6).keys()],
      (now) => limitsAt(o, new Date(now)),
      async (i) => {
        active++;
        seen.push({ at: clock.now() - start, active });
        await clock.sleep(30_000);
        active--;
        if (i === 5) throw new Error('table 5 failed');
        return i;
      },
      clock,
    ),
  );
  expect(seen.slice(0, 2)).toEqual([
    { at: 0, active: 1 },
    { at: 30_000, active: 1 },
  ]);
  expect(seen.slice(2).map((s) => s.at)).toEqual([60_000, 60_000, 60_000, 60_000]);
  expect(Math.max(...seen.map((s) => s.active))).toBe(4);
  expect(results.map((r) => r.status)).toEqual([
    'fulfilled',
    'fulfilled',
    'fulfilled',
    'fulfilled',
    'fulfilled',
    'rejected',
  ]);
});

test('the same instant picks the window of the job time zone', () => {
  const o = opts({
    preset: 'medium',
    schedule: [
      { time: '22:00-06:00', preset: 'max' },
      { time: 'sat', preset: 'low' },
    ],
  });
  const instant = new Date('2026-11-20T23:30:00Z'); // Friday 23:30 in UTC, Saturday 08:30 in Tokyo, Friday 15:30 in LA
  expect(limitsAt(o, instant, 'UTC').preset).toBe('max');
  expect(limitsAt(o, instant, 'Asia/Tokyo').preset).toBe('low');
  expect(limitsAt(o, instant, 'America/Los_Angeles').preset).toBe('medium');
  expect(clockParts(instant, 'Asia/Tokyo')).toEqual({ day: 6, minutes: 8 * 60 + 30 });
  expect(isTimeZone('Europe/Berlin')).toBe(true);
  expect(isTimeZone('Mars/Olympus')).toBe(false);
});

test('without a zone, windows are read in UTC whatever the machine time zone is', () => {
  // A worker process in another zone: jest's own process.env is sandboxed, so the check runs in a child.
  const script = `
    const { limitsAt } = require('./activities/clone/logic/throttle-limits');
    const { applyCloneDefaults, cloneRequestSchema } = require('./schemas/clone');
    const o = applyCloneDefaults(cloneRequestSchema.parse({ source_catalog: 's', destination_catalog: 'd',
      throttle: { preset: 'medium', schedule: [{ time: '22:00-06:00', preset: 'max' }] } }));
    const instant = new Date('2026-11-20T23:30:00Z');
    process.stdout.write(JSON.stringify({ preset: limitsAt(o, instant).preset, localHour: instant.getHours() }));`;
  const inZone = (tz: string) =>
    JSON.parse(
      execFileSync(process.execPath, ['--import', 'tsx', '-e', script], {
        cwd: path.resolve(__dirname, '../..'),
        env: { ...process.env, TZ: tz },
        encoding: 'utf8',
      }),
    );
  expect(inZone('Asia/Tokyo')).toEqual({ preset: 'max', localHour: 8 });
  expect(inZone('America/Los_Angeles')).toEqual({ preset: 'max', localHour: 15 });
});

describe('job-wide tables_per_minute on the store', () => {
  let store: Awaited<ReturnType<typeof createTestStore>>;
  beforeAll(async () => {
    store = await createTestStore();
  });
  afterAll(async () => store?.close());

  test('no more than the cap start in any 60 s window, across concurrent claims; a retried table keeps its slot', async () => {
    const t0 = new Date('2026-11-21T10:00:00Z');
    const at = (s: number) => new Date(t0.getTime() + s * 1000);
    const claims = await Promise.all(
      ['a', 'b', 'c', 'd', 'e'].map((t) => claimTableStart(store.db, 'job-tpm', t, 3, at(0))),
    );
    expect(claims.filter((w) => w === 0)).toHaveLength(3);
    expect(claims.filter((w) => w > 0)).toEqual([60_000, 60_000]);
    const started = ['a', 'b', 'c', 'd', 'e'].filter((_, i) => claims[i] === 0);
    expect(await claimTableStart(store.db, 'job-tpm', started[0], 3, at(30))).toBe(0); // retry of a started table
    const waiting = ['a', 'b', 'c', 'd', 'e'].filter((_, i) => claims[i] > 0);
    expect(await claimTableStart(store.db, 'job-tpm', waiting[0], 3, at(59))).toBe(1000);
    expect(await claimTableStart(store.db, 'job-tpm', waiting[0], 3, at(60))).toBe(0);
    expect(await claimTableStart(store.db, 'other-job', 'a', 3, at(0))).toBe(0); // caps are per job
  });
});
