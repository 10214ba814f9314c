import type { ThrottlePreset } from './throttle-presets';

/**
 * Throttle windows: `{time, preset}` where time is `HH:MM-HH:MM` (end exclusive; a range whose end is not after
 * its start wraps past midnight) or day names (`sat,sun`, `mon-fri`). The first window that matches wins.
 * Pure (no I/O, no clock, no machine time zone) so that workflows can use it with their deterministic time:
 * an instant is read in the job's own time zone (config `clone.throttle_timezone`, default UTC).
 */
export interface ThrottleWindow {
  time: string;
  preset: ThrottlePreset;
}

/** Wall-clock parts of an instant in a time zone: day 0 = Sunday … 6 = Saturday, minutes since midnight. */
export interface ClockParts {
  day: number;
  minutes: number;
}

export const DEFAULT_THROTTLE_TIMEZONE = 'UTC';

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const formats = new Map<string, Intl.DateTimeFormat>();

function formatIn(timeZone: string): Intl.DateTimeFormat {
  let f = formats.get(timeZone);
  if (!f) {
    // en-US with hourCycle h23: weekday names and 0-23 hours whatever the machine's locale says.
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      weekday: 'short',
      hour: 'numeric',
      minute: 'numeric',
      hourCycle: 'h23',
    });
    formats.set(timeZone, f);
  }
  return f;
}

/** True when `zone` is an IANA time zone name this runtime knows (e.g. `UTC`, `Europe/Berlin`). */
export function isTimeZone(zone: string): boolean {
  try {
    formatIn(zone);
    return true;
  } catch {
    return false;
  }
}

/** The wall clock of `d` in `timeZone` (never the machine's zone, so every worker reads the same window). */
export function clockParts(d: Date, timeZone: string = DEFAULT_THROTTLE_TIMEZONE): ClockParts {
  const parts = Object.fromEntries(
    formatIn(timeZone)
      .formatToParts(d)
      .map((p) => [p.type, p.value]),
  );
  return { day: WEEKDAYS.indexOf(parts.weekday), minutes: Number(parts.hour) * 60 + Number(parts.minute) };
}

const DAY_NAMES: Record<string, number> = {
  sun: 0,
  sunday: 0,
  mon: 1,
  monday: 1,
  tue: 2,
  tues: 2,
  tuesday: 2,
  wed: 3,
  wednesday: 3,
  thu: 4,
  thur: 4,
  thurs: 4,
  thursday: 4,
  fri: 5,
  friday: 5,
  sat: 6,
  saturday: 6,
};

function dayIndex(name: string): number {
  const index = DAY_NAMES[name.trim().toLowerCase()];
  if (index === undefined) throw new Error(`throttle.schedule: unknown day "${name}"`);
  return index;
}

const minutesOf = (hhmm: string): number => {
  const [h, m] = hhmm.split(':').map(Number);
  if (!(h >= 0 && h <= 23 && m >= 0 && m <= 59)) throw new Error(`throttle.schedule: bad time "${hhmm}"`);
  return h * 60 + m;
};

export function windowMatches(time: string, at: ClockParts): boolean {
  const range = /^(\d{2}:\d{2})-(\d{2}:\d{2})$/.exec(time.trim());
  if (range) {
    const start = minutesOf(range[1]);
    const end = minutesOf(range[2]);
    return end > start ? at.minutes >= start && at.minutes < end : at.minutes >= start || at.minutes < end;
  }
  return time.split(',').some((part) => {
    const [from, to] = part.split('-');
    const a = dayIndex(from);
    if (to === undefined) return at.day === a;
    const b = dayIndex(to);
    return a <= b ? at.day >= a && at.day <= b : at.day >= a || at.day <= b;
  });
}

/** The preset of the first window in force at `at`, or null when none matches. */
export function presetInForce(schedule: ThrottleWindow[] | undefined, at: ClockParts): ThrottlePreset | null {
  for (const w of schedule ?? []) if (windowMatches(w.time, at)) return w.preset;
  return null;
}
